//! One filed document per batch row (issue 9, item 5): every row that has a request becomes a
//! text, PDF or DOCX document in one folder, optionally a collective request with the
//! co-signers table, under a header that is the row's own.
//!
//! A row's header is the profile's (the management company, the building's address) with the
//! row's «ФИО», «Квартира» and «Телефон» as the sender. A row that names anyone at all is that
//! resident's request, so its sender block comes from the row alone: a value the row lacks is a
//! marked blank, and the profile owner's own name, flat, phone and e-mail never appear on it. A
//! row with none of the three columns filled is the profile owner's request, with the profile's
//! header as it is. The header values were read from the file and stored with the row; they are
//! checked here by the profile's rules before they are printed, and never reach a model (the
//! draft path has no access to them).
//!
//! The files are named `row-NNNN.<format>` after the spreadsheet row (ADR 17): ASCII, so the
//! names survive e-mail attachments, ZIP archives and old file systems unchanged, and numbered
//! as the spreadsheet numbers its rows, so the activist finds each file's row at a glance. A file
//! already in the folder under one of these names with other contents is a clash: nothing is
//! written, and the error lists every clash, unless replacing was asked for; a folder or a link
//! under one of the names is never replaced. A file that is already exactly what would be
//! written is left as it is, so the same export run twice is not a clash.

use std::path::{Path, PathBuf};

use jiff::civil::Date;
use serde::Serialize;
use zayavka_store::{BatchRow as StoredRow, DraftOutcome, Store};

use super::common::BatchError;
use super::file::RowHeader;
use crate::document::{self, CoSigners, DocumentError, DocumentFormat, FiledDocument, RenderError};
use crate::drafts::DraftsError;
use crate::paths::io_error_ru;
use crate::profile::{self, Profile, ProfileError, ProfileField};

/// What to write for each row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DocumentsExport {
    /// The format of every document.
    pub format: DocumentFormat,
    /// The date every document is dated.
    pub date: Date,
    /// The co-signers table, for collective requests; `None` for plain ones.
    pub co_signers: Option<CoSigners>,
    /// Replace files with the same names and other contents, instead of refusing.
    pub replace: bool,
}

/// One document written (or found already written).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WrittenDocument {
    /// The row's number, as the spreadsheet shows it.
    pub row: u32,
    /// The file.
    pub path: PathBuf,
    /// What happened to the file.
    pub status: WriteStatus,
}

/// What happened to one document's file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WriteStatus {
    /// The file did not exist and was written.
    Created,
    /// A file with other contents was replaced, as asked.
    Replaced,
    /// The file already held exactly this document and was left as it is.
    Unchanged,
}

/// A row that got no document, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SkippedRow {
    /// The row's number, as the spreadsheet shows it.
    pub row: u32,
    /// Why it got no document.
    pub reason: SkipReason,
}

/// Why a row got no document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum SkipReason {
    /// The row failed its checks when the file was read, so it was never drafted.
    InvalidInput,
    /// The row has not been drafted yet (never run, interrupted, or held back by the cost cap).
    NotDrafted,
    /// The row was drafted but has no request: the draft's outcome says why.
    NoRequest {
        /// The draft's outcome code (`needs_user`, `rejected`, `failed`).
        outcome: String,
    },
    /// One of the row's header columns holds a value a document header may not print.
    InvalidHeader {
        /// What is wrong, in Russian.
        message: String,
    },
}

impl SkipReason {
    /// The reason in Russian, for a list of skipped rows.
    pub fn message_ru(&self) -> String {
        match self {
            SkipReason::InvalidInput => {
                "строка не прошла проверку, поэтому заявка не составлялась".to_owned()
            }
            SkipReason::NotDrafted => {
                "заявка ещё не составлена: запустите пакет снова, чтобы её составить".to_owned()
            }
            SkipReason::NoRequest { outcome } => match outcome.as_str() {
                "needs_user" => "нужно уточнить описание: готовой заявки нет".to_owned(),
                "rejected" => "ответ модели не подошёл: готовой заявки нет".to_owned(),
                "failed" => "технический сбой при составлении: запустите пакет снова".to_owned(),
                _ => "готовой заявки нет".to_owned(),
            },
            SkipReason::InvalidHeader { message } => {
                format!("столбец для шапки документа не подходит — {message}")
            }
        }
    }
}

/// What an export of documents did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DocumentsReport {
    /// The folder written to.
    pub dir: PathBuf,
    /// The documents, in row order.
    pub written: Vec<WrittenDocument>,
    /// The rows without a document, in row order.
    pub skipped: Vec<SkippedRow>,
}

/// Why the documents could not be written. Nothing was written, except after a
/// [`DocumentsError::Write`] or [`DocumentsError::Render`] failure on a later file, where the
/// files before it are complete (each file is written whole or not at all).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DocumentsError {
    /// The batch could not be read.
    #[error("{}", .0.message_ru())]
    Batch(#[from] BatchError),
    /// A stored draft could not be read back.
    #[error("{}", .0.message_ru())]
    Draft(#[from] DraftsError),
    /// A document could not be rendered.
    #[error("строка {row}: {error}")]
    Render {
        /// The row.
        row: u32,
        /// What went wrong.
        error: RenderError,
    },
    /// Files with these names and other contents are already in the folder; nothing was
    /// written.
    #[error("{}", clash_message(.dir, .files))]
    Clash {
        /// The folder.
        dir: PathBuf,
        /// The files that would have been overwritten, in row order.
        files: Vec<PathBuf>,
    },
    /// Folders, links or anything else that is not a regular file stand under some of the
    /// names; they are never replaced, so nothing was written.
    #[error(
        "в папке «{}» под именами документов уже есть папки или ссылки: {}. Ничего не записано: \
         выберите другую папку",
        .dir.display(),
        listed(.paths)
    )]
    Occupied {
        /// The folder.
        dir: PathBuf,
        /// What stands under the names, in row order.
        paths: Vec<PathBuf>,
    },
    /// The folder could not be created or written to.
    #[error("не удалось записать «{}»: {}. Укажите другую папку", .path.display(), io_error_ru(.error))]
    Write {
        /// The file or folder.
        path: PathBuf,
        /// The cause.
        error: std::io::Error,
    },
}

impl DocumentsError {
    /// What happened and what to do, in Russian.
    pub fn message_ru(&self) -> String {
        self.to_string()
    }
}

/// At most this many clashing names are listed by name; the rest are counted.
const CLASHES_LISTED: usize = 10;

fn clash_message(dir: &Path, files: &[PathBuf]) -> String {
    format!(
        "в папке «{}» уже есть другие файлы с теми же именами: {}. Ничего не записано: выберите \
         пустую папку или разрешите заменить эти файлы",
        dir.display(),
        listed(files)
    )
}

/// The names of `paths`, the first few of them by name and the rest counted.
fn listed(paths: &[PathBuf]) -> String {
    let mut names: Vec<String> = paths
        .iter()
        .take(CLASHES_LISTED)
        .map(|path| {
            path.file_name().map_or_else(
                || path.display().to_string(),
                |name| name.to_string_lossy().into_owned(),
            )
        })
        .collect();
    if paths.len() > CLASHES_LISTED {
        names.push(format!("и ещё {}", paths.len() - CLASHES_LISTED));
    }
    names.join(", ")
}

/// The file name of a row's document: `row-0002.pdf` for spreadsheet row 2.
pub fn document_file_name(row: u32, format: DocumentFormat) -> String {
    format!("row-{row:04}.{}", format.extension())
}

/// The profile a row's document header is printed from: the profile itself for a row with no
/// header values, else the profile's company and building with the row's name, flat and phone,
/// and no e-mail (the profile's is its owner's, and this request is not theirs).
pub fn row_profile(profile: &Profile, header: &RowHeader) -> Result<Profile, ProfileError> {
    if header == &RowHeader::default() {
        return Ok(profile.clone());
    }
    let mut row = profile.clone();
    for (field, value) in [
        (ProfileField::FullName, &header.full_name),
        (ProfileField::Apartment, &header.apartment),
        (ProfileField::Phone, &header.phone),
    ] {
        row = profile::with_field(&row, field, value.as_deref().unwrap_or(""))?;
    }
    profile::with_field(&row, ProfileField::Email, "")
}

/// The document of one stored row, or why it has none.
fn row_document(
    store: &Store,
    row: &StoredRow,
    profile: &Profile,
    options: &DocumentsExport,
) -> Result<Result<FiledDocument, SkipReason>, DocumentsError> {
    if row.checked_input_json.is_none() {
        return Ok(Err(SkipReason::InvalidInput));
    }
    let Some(draft_id) = row.draft_id else {
        return Ok(Err(SkipReason::NotDrafted));
    };
    let draft = crate::drafts::get(store, draft_id)?;
    let header: RowHeader = match row.header_json.as_deref() {
        None => RowHeader::default(),
        Some(json) => match serde_json::from_str(json) {
            Ok(header) => header,
            Err(_) => {
                return Ok(Err(SkipReason::InvalidHeader {
                    message: "сохранённые данные шапки не читаются".to_owned(),
                }));
            }
        },
    };
    let row_profile = match row_profile(profile, &header) {
        Ok(row_profile) => row_profile,
        Err(error) => {
            return Ok(Err(SkipReason::InvalidHeader {
                message: error.message_ru(),
            }));
        }
    };
    let document = match document::for_draft(&draft, &row_profile, options.date) {
        Ok(document) => document,
        Err(DocumentError::NotAssembled(_)) => {
            return Ok(Err(match draft.summary.outcome {
                DraftOutcome::Pending => SkipReason::NotDrafted,
                DraftOutcome::InvalidInput => SkipReason::InvalidInput,
                outcome => SkipReason::NoRequest {
                    outcome: outcome.code().to_owned(),
                },
            }));
        }
        Err(DocumentError::Drafts(error)) => return Err(error.into()),
    };
    Ok(Ok(match options.co_signers {
        Some(co_signers) => document.with_co_signers(co_signers),
        None => document,
    }))
}

fn render(
    document: &FiledDocument,
    row: u32,
    options: &DocumentsExport,
) -> Result<Vec<u8>, DocumentsError> {
    document
        .render(options.format)
        .map_err(|error| DocumentsError::Render { row, error })
}

/// A row's number in the file as last run (the rows exported are all in it).
fn file_row(row: &zayavka_store::BatchRow) -> u32 {
    row.file_row.unwrap_or(row.row_number)
}

/// Writes one document per row of a stored batch that has a request into `dir` (created if
/// missing), named `row-NNNN.<format>`; every other row is reported with its reason.
///
/// Every name is checked before anything is written: a file already there under one of the
/// names with other contents refuses the whole export ([`DocumentsError::Clash`]) unless
/// `options.replace` is set, a folder or a link under a name always does
/// ([`DocumentsError::Occupied`]), and a folder that cannot be written to is found out before
/// the first file. Only the documents whose file exists are rendered for that check; the others
/// are rendered one at a time as they are written, so a large batch is never held in memory.
/// Each file is written whole or not at all.
pub fn export_documents(
    store: &Store,
    batch_id: &str,
    profile: &Profile,
    options: &DocumentsExport,
    dir: &Path,
) -> Result<DocumentsReport, DocumentsError> {
    if store.batch(batch_id).map_err(BatchError::from)?.is_none() {
        return Err(BatchError::NotFound(batch_id.to_owned()).into());
    }
    let rows = store.batch_rows(batch_id).map_err(BatchError::from)?;
    let mut report = DocumentsReport {
        dir: dir.to_path_buf(),
        written: Vec::new(),
        skipped: Vec::new(),
    };
    let mut planned = Vec::new();
    let mut clashes = Vec::new();
    let mut occupied = Vec::new();
    for row in &rows {
        let document = match row_document(store, row, profile, options)? {
            Ok(document) => document,
            Err(reason) => {
                report.skipped.push(SkippedRow {
                    row: file_row(row),
                    reason,
                });
                continue;
            }
        };
        let path = dir.join(document_file_name(file_row(row), options.format));
        let status = match std::fs::symlink_metadata(&path) {
            Err(_) => WriteStatus::Created,
            Ok(metadata) if !metadata.is_file() => {
                occupied.push(path.clone());
                WriteStatus::Replaced
            }
            Ok(_) => {
                let bytes = render(&document, file_row(row), options)?;
                if std::fs::read(&path).is_ok_and(|existing| existing == bytes) {
                    WriteStatus::Unchanged
                } else {
                    if !options.replace {
                        clashes.push(path.clone());
                    }
                    WriteStatus::Replaced
                }
            }
        };
        planned.push((row, path, status));
    }
    if !occupied.is_empty() {
        return Err(DocumentsError::Occupied {
            dir: dir.to_path_buf(),
            paths: occupied,
        });
    }
    if !clashes.is_empty() {
        return Err(DocumentsError::Clash {
            dir: dir.to_path_buf(),
            files: clashes,
        });
    }
    if planned.is_empty() {
        return Ok(report);
    }
    let write_error = |path: &Path| {
        let path = path.to_path_buf();
        move |error| DocumentsError::Write { path, error }
    };
    crate::paths::create_output_dir(dir).map_err(write_error(dir))?;
    // A folder that takes no file is found out before the first document is written.
    tempfile::tempfile_in(dir).map_err(write_error(dir))?;
    for (row, path, status) in planned {
        if status != WriteStatus::Unchanged {
            // Read again rather than kept: the same row, profile and date give the same
            // document. A row whose request went away meanwhile (deleted in the app) is skipped.
            let document = match row_document(store, row, profile, options)? {
                Ok(document) => document,
                Err(reason) => {
                    report.skipped.push(SkippedRow {
                        row: file_row(row),
                        reason,
                    });
                    continue;
                }
            };
            let bytes = render(&document, file_row(row), options)?;
            crate::paths::replace_file(&path, &bytes).map_err(write_error(&path))?;
        }
        report.written.push(WrittenDocument {
            row: file_row(row),
            path,
            status,
        });
    }
    report.skipped.sort_by_key(|skipped| skipped.row);
    Ok(report)
}

impl crate::error::EngineError for DocumentsError {
    fn kind(&self) -> crate::error::ErrorKind {
        match self {
            DocumentsError::Batch(error) => error.kind(),
            DocumentsError::Draft(error) => error.kind(),
            DocumentsError::Clash { .. } => crate::error::ErrorKind::FilesExist,
            DocumentsError::Render { .. } => crate::error::ErrorKind::Internal,
            _ => crate::error::ErrorKind::Write,
        }
    }

    fn message_ru(&self) -> String {
        DocumentsError::message_ru(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile() -> Profile {
        [
            (ProfileField::FullName, "Иванова Мария Петровна"),
            (ProfileField::Address, "г. Тверь, ул. Лётная, д. 5"),
            (ProfileField::Apartment, "12"),
            (ProfileField::Phone, "+7 900 000-00-00"),
            (ProfileField::Email, "maria@example.ru"),
            (ProfileField::CompanyName, "ООО «УК „Дом“»"),
        ]
        .into_iter()
        .fold(Profile::default(), |profile, (field, value)| {
            profile::with_field(&profile, field, value).unwrap()
        })
    }

    #[test]
    fn a_row_without_header_values_is_the_profile_owners_request() {
        assert_eq!(
            row_profile(&profile(), &RowHeader::default()).unwrap(),
            profile()
        );
    }

    #[test]
    fn a_row_that_names_a_resident_prints_only_that_residents_details() {
        let header = RowHeader {
            full_name: Some("Петров Пётр".to_owned()),
            apartment: Some("31".to_owned()),
            phone: None,
        };
        let row = row_profile(&profile(), &header).unwrap();
        assert_eq!(row.get(ProfileField::FullName), Some("Петров Пётр"));
        assert_eq!(row.get(ProfileField::Apartment), Some("31"));
        assert_eq!(
            row.get(ProfileField::Phone),
            None,
            "a blank, not the owner's"
        );
        assert_eq!(
            row.get(ProfileField::Email),
            None,
            "a blank, not the owner's"
        );
        assert_eq!(
            row.get(ProfileField::Address),
            Some("г. Тверь, ул. Лётная, д. 5")
        );
        assert_eq!(row.get(ProfileField::CompanyName), Some("ООО «УК „Дом“»"));
    }

    #[test]
    fn a_header_value_the_profile_would_refuse_is_refused() {
        let header = RowHeader {
            full_name: None,
            apartment: Some("кв".repeat(11)),
            phone: None,
        };
        let error = row_profile(&profile(), &header).unwrap_err();
        assert!(
            error.message_ru().contains("«Квартира» слишком длинное"),
            "{error}"
        );
        let header = RowHeader {
            phone: Some("нет".to_owned()),
            ..RowHeader::default()
        };
        assert!(row_profile(&profile(), &header).is_err());
    }

    #[test]
    fn file_names_follow_the_spreadsheet_row() {
        assert_eq!(document_file_name(2, DocumentFormat::Pdf), "row-0002.pdf");
        assert_eq!(
            document_file_name(31, DocumentFormat::Docx),
            "row-0031.docx"
        );
        assert_eq!(
            document_file_name(12345, DocumentFormat::Txt),
            "row-12345.txt"
        );
    }

    #[test]
    fn every_skip_reason_reads_in_russian() {
        for reason in [
            SkipReason::InvalidInput,
            SkipReason::NotDrafted,
            SkipReason::NoRequest {
                outcome: "needs_user".to_owned(),
            },
            SkipReason::NoRequest {
                outcome: "failed".to_owned(),
            },
            SkipReason::InvalidHeader {
                message: "поле «Квартира» слишком длинное".to_owned(),
            },
        ] {
            let message = reason.message_ru();
            assert!(
                message.chars().any(|c| ('а'..='я').contains(&c)),
                "{message}"
            );
        }
    }
}
