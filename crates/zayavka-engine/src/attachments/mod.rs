//! Photos attached to a draft as evidence (ADR 18): what the CLI's `drafts attach`,
//! `drafts attachments` and `drafts detach` and the desktop app's photo list call.
//!
//! Every photo is read with the size cap of [`FileRole::Photo`], recognised by its bytes,
//! cleaned of its metadata and turned upright by [`prepare_photo`] before anything is stored;
//! [`attach`] is all or nothing. The resident's file name is never stored: a document names a
//! photo «Фото N (JPEG, 1,2 МБ)». Photos have no path to the model: nothing on the draft path
//! reads them, and only the document renderers do.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;
use zayavka_codes::{joined_codes, stable_codes};
use zayavka_store::{AttachmentRole, DraftId, NewAttachment, Store, StoreError, StoredAttachment};

use crate::read::{DisplayPath, FileRole, ReadError, ReadErrorCode, read_file_bytes};

pub use zayavka_document::{
    DocumentPhoto, PHOTO_MAX_PIXELS, PHOTO_MAX_SIDE, PHOTOS_PER_DRAFT, PhotoFormat, PhotoProblem,
    metadata_left, photo_label, photo_name, prepare_photo,
};

/// One attached photo as a front end lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AttachmentSummary {
    /// Its number in the draft's list and in the document («Приложение N»), from 1.
    pub number: u32,
    /// JPEG or PNG.
    pub format: PhotoFormat,
    /// The width in pixels, upright.
    pub width: u32,
    /// The height in pixels, upright.
    pub height: u32,
    /// The size of the stored (cleaned) copy in bytes.
    pub byte_size: u64,
    /// The SHA-256 of the stored copy, as the audit log keeps it.
    pub sha256: String,
    /// How the document names it: «Фото 1 (JPEG, 1,2 МБ)».
    pub label: String,
}

impl AttachmentSummary {
    fn from_stored(stored: &StoredAttachment) -> Result<AttachmentSummary, AttachmentError> {
        let format = PhotoFormat::from_media_type(&stored.media_type)
            .ok_or(AttachmentError::Damaged(stored.draft_id))?;
        Ok(AttachmentSummary {
            number: stored.number,
            format,
            width: stored.width,
            height: stored.height,
            byte_size: stored.byte_size,
            sha256: stored.sha256.clone(),
            label: photo_label(stored.number, format, stored.byte_size),
        })
    }
}

/// The answer of [`detach`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Detached {
    /// The photo removed, with the number it had.
    pub removed: AttachmentSummary,
    /// The photos left, numbered again from 1.
    pub remaining: Vec<AttachmentSummary>,
}

/// Why photos could not be attached, listed or removed. Nothing was changed in any case.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AttachmentError {
    /// No file was named.
    #[error("не выбрано ни одного файла: укажите одну или несколько фотографий JPEG или PNG.")]
    NoFiles,
    /// No draft has this id.
    #[error(
        "черновика с номером {0} нет: проверьте номер в списке черновиков. Ничего не изменено."
    )]
    NotFound(DraftId),
    /// A file could not be read (missing, a folder, no permission, larger than the limit).
    #[error("{}", read_message(.0))]
    Read(#[from] ReadError),
    /// A file's bytes are not a photo that can be stored.
    #[error("{}", photo_message(.path, .problem))]
    Photo {
        /// The file as named.
        path: PathBuf,
        /// What is wrong with it.
        problem: PhotoProblem,
    },
    /// More photos than a draft may carry.
    #[error(
        "к черновику можно приложить не больше {limit} фотографий, а у черновика № {draft_id} \
         их уже {existing}, и вы добавляете ещё {adding}. Ничего не добавлено: уберите лишние \
         фотографии (они нумеруются по порядку) или выберите меньше."
    )]
    TooMany {
        /// The draft.
        draft_id: DraftId,
        /// How many it has.
        existing: u32,
        /// How many were to be added.
        adding: u32,
        /// The limit.
        limit: u32,
    },
    /// The draft has no photo with this number.
    #[error(
        "у черновика № {draft_id} нет фотографии с номером {number}{}. Ничего не изменено.",
        numbers_hint(.count)
    )]
    NoSuchPhoto {
        /// The draft.
        draft_id: DraftId,
        /// The number asked for.
        number: u32,
        /// How many photos the draft has.
        count: u32,
    },
    /// A stored photo does not read back (the database was changed by hand or is damaged).
    #[error("фотографии черновика № {0} повреждены и не читаются; сам черновик в порядке.")]
    Damaged(DraftId),
    /// The database could not be used.
    #[error("{}", .0.message_ru())]
    Store(StoreError),
}

stable_codes! {
    /// The codes of an [`AttachmentError`] of its own, beside a photo file's [`ReadErrorCode`]s.
    pub enum AttachmentCode {
        /// `no_files`.
        NoFiles => "no_files",
        /// `draft_not_found`.
        DraftNotFound => "draft_not_found",
        /// `not_an_image`.
        NotAnImage => "not_an_image",
        /// `unsupported_format`.
        UnsupportedFormat => "unsupported_format",
        /// `truncated`.
        Truncated => "truncated",
        /// `damaged_image`.
        DamagedImage => "damaged_image",
        /// `too_many_pixels`.
        TooManyPixels => "too_many_pixels",
        /// `too_many_photos`.
        TooManyPhotos => "too_many_photos",
        /// `no_such_photo`.
        NoSuchPhoto => "no_such_photo",
        /// `damaged`.
        Damaged => "damaged",
        /// `store`.
        Store => "store",
    }
}

joined_codes! {
    /// The stable code of an [`AttachmentError`], for front ends and tests.
    pub enum AttachmentErrorCode {
        /// A photo file could not be read.
        Read(ReadErrorCode),
        /// Any other failure.
        Own(AttachmentCode),
    }
}

impl AttachmentError {
    /// What happened and what to do, in Russian.
    pub fn message_ru(&self) -> String {
        self.to_string()
    }

    /// A stable code for the kind of failure, for front ends and tests.
    pub fn code(&self) -> AttachmentErrorCode {
        let own = match self {
            AttachmentError::Read(error) => return AttachmentErrorCode::Read(error.code()),
            AttachmentError::NoFiles => AttachmentCode::NoFiles,
            AttachmentError::NotFound(_) => AttachmentCode::DraftNotFound,
            AttachmentError::Photo { problem, .. } => match problem {
                PhotoProblem::NotAnImage => AttachmentCode::NotAnImage,
                PhotoProblem::OtherFormat(_) => AttachmentCode::UnsupportedFormat,
                PhotoProblem::Truncated => AttachmentCode::Truncated,
                PhotoProblem::Damaged => AttachmentCode::DamagedImage,
                PhotoProblem::TooManyPixels { .. } => AttachmentCode::TooManyPixels,
            },
            AttachmentError::TooMany { .. } => AttachmentCode::TooManyPhotos,
            AttachmentError::NoSuchPhoto { .. } => AttachmentCode::NoSuchPhoto,
            AttachmentError::Damaged(_) => AttachmentCode::Damaged,
            AttachmentError::Store(_) => AttachmentCode::Store,
        };
        AttachmentErrorCode::Own(own)
    }
}

fn numbers_hint(count: &u32) -> String {
    match *count {
        0 => ": у него нет фотографий".to_owned(),
        1 => ": у него одна фотография, с номером 1".to_owned(),
        n => format!(": его фотографии пронумерованы от 1 до {n}"),
    }
}

fn read_message(error: &ReadError) -> String {
    format!("{} Ничего не добавлено.", error.message_ru())
}

fn photo_message(path: &Path, problem: &PhotoProblem) -> String {
    let file = format!("файл «{}»", DisplayPath(path));
    match problem {
        PhotoProblem::NotAnImage => format!(
            "{file} — не фотография: Заявка принимает снимки JPEG и PNG и узнаёт их по \
             содержимому, а не по имени файла. Ничего не добавлено. Выберите снимок JPEG или \
             PNG."
        ),
        PhotoProblem::OtherFormat(name) => format!(
            "{file} — снимок в формате {name}, а Заявка принимает только JPEG и PNG. Ничего не \
             добавлено. Сохраните снимок как JPEG (например, откройте его и выберите «Сохранить \
             как» или «Экспорт») и добавьте его ещё раз."
        ),
        PhotoProblem::Truncated => format!(
            "{file} обрывается раньше конца снимка: похоже, он скопирован или скачан не \
             полностью. Ничего не добавлено. Скопируйте снимок заново и добавьте его ещё раз."
        ),
        PhotoProblem::Damaged => format!(
            "{file} повреждён и не читается как снимок. Ничего не добавлено. Откройте его в \
             программе просмотра фотографий, сохраните заново и добавьте ещё раз."
        ),
        PhotoProblem::TooManyPixels { width, height } => format!(
            "Снимок «{}» слишком большой: {} × {} точек, а Заявка принимает снимки не больше \
             {} точек по стороне и {} миллионов точек всего. Ничего не добавлено. Уменьшите \
             снимок в графическом редакторе (например, «Изменить размер» в Paint или \
             «Фотографиях») или перешлите его себе в мессенджере — он пришлёт снимок \
             поменьше — и добавьте его ещё раз.",
            DisplayPath(path),
            grouped(u64::from(*width)),
            grouped(u64::from(*height)),
            grouped(u64::from(PHOTO_MAX_SIDE)),
            PHOTO_MAX_PIXELS / 1_000_000
        ),
    }
}

/// A number with its thousands set apart by spaces, as Russian text writes them: 19 000.
fn grouped(number: u64) -> String {
    let digits = number.to_string();
    let mut text = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            text.push(' ');
        }
        text.push(digit);
    }
    text
}

fn store_error(error: StoreError) -> AttachmentError {
    match error {
        StoreError::DraftNotFound(id) => AttachmentError::NotFound(id),
        StoreError::TooManyAttachments {
            draft_id,
            existing,
            adding,
            limit,
        } => AttachmentError::TooMany {
            draft_id,
            existing,
            adding,
            limit,
        },
        other => AttachmentError::Store(other),
    }
}

fn summaries(list: &[StoredAttachment]) -> Result<Vec<AttachmentSummary>, AttachmentError> {
    list.iter().map(AttachmentSummary::from_stored).collect()
}

/// Attaches the photos in `files` to draft `id`, all or none: every file is read, checked and
/// cleaned first, and only when all are good are they stored, in one transaction. Returns the
/// draft's whole list afterwards.
pub fn attach(
    store: &Store,
    id: DraftId,
    files: &[PathBuf],
) -> Result<Vec<AttachmentSummary>, AttachmentError> {
    attach_as(store, id, AttachmentRole::Evidence, files)
}

/// [`attach`] for photos of a role: the problem, the proof of filing or the answer's pages
/// (issue 30), each role with its own numbers and limit.
pub fn attach_as(
    store: &Store,
    id: DraftId,
    role: AttachmentRole,
    files: &[PathBuf],
) -> Result<Vec<AttachmentSummary>, AttachmentError> {
    if files.is_empty() {
        return Err(AttachmentError::NoFiles);
    }
    // Said before any file is read: a resident choosing twenty photos learns it at once.
    let existing = u32::try_from(store.attachments_as(id, role).map_err(store_error)?.len())
        .unwrap_or(u32::MAX);
    let adding = u32::try_from(files.len()).unwrap_or(u32::MAX);
    if existing.saturating_add(adding) > PHOTOS_PER_DRAFT {
        return Err(AttachmentError::TooMany {
            draft_id: id,
            existing,
            adding,
            limit: PHOTOS_PER_DRAFT,
        });
    }
    let mut prepared = Vec::with_capacity(files.len());
    for path in files {
        let bytes = read_file_bytes(path, FileRole::Photo, FileRole::PHOTO_MAX_BYTES)?;
        let photo = prepare_photo(&bytes).map_err(|problem| AttachmentError::Photo {
            path: path.clone(),
            problem,
        })?;
        // The cleaning is checked once more on the very bytes to be stored.
        if !metadata_left(&photo.bytes).is_empty() {
            return Err(AttachmentError::Photo {
                path: path.clone(),
                problem: PhotoProblem::Damaged,
            });
        }
        prepared.push(NewAttachment {
            media_type: photo.format.media_type().to_owned(),
            width: photo.width,
            height: photo.height,
            bytes: photo.bytes,
        });
    }
    let list = store
        .add_attachments_as(id, role, &prepared, PHOTOS_PER_DRAFT)
        .map_err(store_error)?;
    summaries(&list)
}

/// The photos of draft `id`, in order.
pub fn attachments(store: &Store, id: DraftId) -> Result<Vec<AttachmentSummary>, AttachmentError> {
    attachments_as(store, id, AttachmentRole::Evidence)
}

/// The photos of a role of draft `id`, in order.
pub fn attachments_as(
    store: &Store,
    id: DraftId,
    role: AttachmentRole,
) -> Result<Vec<AttachmentSummary>, AttachmentError> {
    summaries(&store.attachments_as(id, role).map_err(store_error)?)
}

/// Removes photo `number` from draft `id`; the photos after it move up one number. Its bytes
/// leave the database and its log.
pub fn detach(store: &Store, id: DraftId, number: u32) -> Result<Detached, AttachmentError> {
    let removed = match store.remove_attachment(id, number) {
        Ok(removed) => removed,
        Err(StoreError::AttachmentNotFound { draft_id, number }) => {
            let count = u32::try_from(store.attachments(id).map_err(store_error)?.len())
                .unwrap_or(u32::MAX);
            return Err(AttachmentError::NoSuchPhoto {
                draft_id,
                number,
                count,
            });
        }
        Err(error) => return Err(store_error(error)),
    };
    Ok(Detached {
        removed: AttachmentSummary::from_stored(&removed.removed)?,
        remaining: attachments(store, id)?,
    })
}

/// The photos of draft `id` with their stored bytes, for its document.
pub fn document_photos(store: &Store, id: DraftId) -> Result<Vec<DocumentPhoto>, AttachmentError> {
    store
        .attachments_with_bytes(id)
        .map_err(store_error)?
        .into_iter()
        .map(|(stored, bytes)| {
            let summary = AttachmentSummary::from_stored(&stored)?;
            Ok(DocumentPhoto {
                number: summary.number,
                format: summary.format,
                width: summary.width,
                height: summary.height,
                label: summary.label,
                bytes: Arc::new(bytes),
            })
        })
        .collect()
}

impl crate::error::EngineError for AttachmentError {
    fn kind(&self) -> crate::error::ErrorKind {
        match self {
            AttachmentError::NotFound(_) | AttachmentError::NoSuchPhoto { .. } => {
                crate::error::ErrorKind::NotFound
            }
            AttachmentError::Damaged(_) => crate::error::ErrorKind::Damaged,
            AttachmentError::Store(_) => crate::error::ErrorKind::Store,
            _ => crate::error::ErrorKind::Photo,
        }
    }

    fn message_ru(&self) -> String {
        AttachmentError::message_ru(self)
    }

    fn store_code(&self) -> Option<zayavka_store::StoreErrorCode> {
        match self {
            AttachmentError::Store(error) => Some(error.code()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression (issue 14): the message read «в снимке файл «bomb.png» 19000 × 19000 точек».
    #[test]
    fn issue_14_a_too_large_photo_is_named_and_the_resident_told_what_to_do() {
        let error = AttachmentError::Photo {
            path: PathBuf::from("bomb.png"),
            problem: PhotoProblem::TooManyPixels {
                width: 19_000,
                height: 19_000,
            },
        };
        assert_eq!(
            error.message_ru(),
            "Снимок «bomb.png» слишком большой: 19 000 × 19 000 точек, а Заявка принимает снимки \
             не больше 20 000 точек по стороне и 50 миллионов точек всего. Ничего не добавлено. \
             Уменьшите снимок в графическом редакторе (например, «Изменить размер» в Paint или \
             «Фотографиях») или перешлите его себе в мессенджере — он пришлёт снимок поменьше — \
             и добавьте его ещё раз."
        );
        assert_eq!(grouped(7), "7");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1_000), "1 000");
        assert_eq!(grouped(60_000), "60 000");
        assert_eq!(grouped(4_294_967_295), "4 294 967 295");
    }

    #[test]
    fn every_message_is_russian_and_says_nothing_changed() {
        let path = PathBuf::from("/tmp/снимок\u{1b}[31m.jpg");
        let errors = [
            AttachmentError::Photo {
                path: path.clone(),
                problem: PhotoProblem::NotAnImage,
            },
            AttachmentError::Photo {
                path: path.clone(),
                problem: PhotoProblem::Truncated,
            },
            AttachmentError::Photo {
                path: path.clone(),
                problem: PhotoProblem::OtherFormat("HEIC"),
            },
            AttachmentError::Photo {
                path: path.clone(),
                problem: PhotoProblem::Damaged,
            },
            AttachmentError::Photo {
                path,
                problem: PhotoProblem::TooManyPixels {
                    width: 60_000,
                    height: 60_000,
                },
            },
            AttachmentError::TooMany {
                draft_id: DraftId::new(3).unwrap(),
                existing: 9,
                adding: 2,
                limit: 10,
            },
            AttachmentError::NoSuchPhoto {
                draft_id: DraftId::new(3).unwrap(),
                number: 4,
                count: 2,
            },
            AttachmentError::NotFound(DraftId::new(3).unwrap()),
        ];
        for error in errors {
            let message = error.message_ru();
            assert!(message.contains("Ничего не"), "{message}");
            assert!(!message.contains('\u{1b}'), "{message}");
            assert!(message.ends_with('.'), "{message}");
        }
    }
}
