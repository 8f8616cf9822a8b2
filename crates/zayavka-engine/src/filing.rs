//! A stored draft as the document the resident files, in one place for both front ends (issue
//! 18): the draft read from the store under the profile's header, with its photos as
//! appendices and, for a collective request, the table for neighbours' signatures; rendered in
//! the format asked for; and written to the file the resident named whole or not at all, never
//! half-written over what was there.

use std::path::{Path, PathBuf};

use jiff::civil::Date;
use zayavka_core::full_sentence;
use zayavka_document::ProfileField;
use zayavka_store::{DraftId, FollowKind, Store};

use crate::attachments::{AttachmentError, document_photos};
use crate::document::{CoSigners, DocumentError, FiledDocument, RenderError, for_draft};
use crate::drafts::{DraftsError, get};
use crate::error::{EngineError, ErrorKind};
use crate::paths::{Paths, io_error_ru, replace_file};
use crate::profile::{ProfileError, load};

/// Why a stored draft could not be made into a document or saved. [`FilingError::message_ru`]
/// says what happened; the [`EngineError`] sentence adds what to do.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FilingError {
    /// The draft is not in the store, or does not read back.
    #[error("{}", .0.message_ru())]
    Draft(#[from] DraftsError),
    /// The profile for the header could not be read.
    #[error("{}", .0.message_ru())]
    Profile(#[from] ProfileError),
    /// The draft's photos could not be read.
    #[error("{}", .0.message_ru())]
    Photos(#[from] AttachmentError),
    /// The draft holds no request ([`DocumentError::NotAssembled`]) or its request does not
    /// read back.
    #[error("{}", .0.message_ru())]
    Document(#[from] DocumentError),
    /// The PDF or DOCX writer refused the document.
    #[error("{0}")]
    Render(#[from] RenderError),
    /// The file could not be written; whatever was there before is unchanged.
    #[error("не удалось записать «{}»: {}", .path.display(), io_error_ru(.error))]
    Write {
        /// The file the resident named.
        path: PathBuf,
        /// The cause.
        error: std::io::Error,
    },
}

impl FilingError {
    /// What happened, in Russian, without a next step.
    pub fn message_ru(&self) -> String {
        self.to_string()
    }
}

/// A front end shows a filing failure by its kind, with a sentence that says what to do
/// instead: a draft without a request has nothing to save, a writer that refused one format
/// leaves the others, and a file that cannot be written asks for another folder.
impl EngineError for FilingError {
    fn kind(&self) -> ErrorKind {
        match self {
            FilingError::Draft(error) => error.kind(),
            FilingError::Profile(error) => error.kind(),
            FilingError::Photos(error) => error.kind(),
            FilingError::Document(DocumentError::NotAssembled(_)) => ErrorKind::NotReassemblable,
            FilingError::Document(_) => ErrorKind::Damaged,
            FilingError::Render(_) => ErrorKind::Internal,
            FilingError::Write { .. } => ErrorKind::Write,
        }
    }

    fn message_ru(&self) -> String {
        match self {
            FilingError::Draft(error) => EngineError::message_ru(error),
            FilingError::Profile(error) => EngineError::message_ru(error),
            FilingError::Photos(error) => EngineError::message_ru(error),
            FilingError::Document(DocumentError::NotAssembled(_)) => {
                "У этого черновика нет готовой заявки: сохранять и печатать нечего.".to_owned()
            }
            FilingError::Document(error) => error.message_ru(),
            FilingError::Render(error) => format!(
                "{} Сохраните заявку в другом формате или скопируйте её.",
                full_sentence(&error.to_string())
            ),
            FilingError::Write { path, error } => format!(
                "Не удалось сохранить файл «{}»: {}. Выберите другую папку.",
                path.display(),
                io_error_ru(error)
            ),
        }
    }

    fn store_code(&self) -> Option<zayavka_store::StoreErrorCode> {
        match self {
            FilingError::Draft(error) => error.store_code(),
            FilingError::Photos(error) => error.store_code(),
            _ => None,
        }
    }
}

/// The document of stored draft `id`, dated `date`: the resident's latest edit or the
/// assembled request, the header from the profile (a missing field a marked blank), the
/// draft's photos as appendices, and the co-signers' table when `collective`.
pub fn filed_document(
    store: &Store,
    paths: &Paths,
    id: DraftId,
    date: Date,
    collective: bool,
) -> Result<FiledDocument, FilingError> {
    let draft = get(store, id)?;
    let mut profile = load(paths)?;
    // A letter to a recorded addressee (a complaint's inspectorate, a repeat request's
    // company as filed) names it in «Кому»; the profile's company address stays only when the
    // profile's company is that same addressee, else it is left blank to fill in.
    if let Some(addressee) = store.addressee(id).map_err(DraftsError::from)? {
        let same_company = profile
            .get(ProfileField::CompanyName)
            .is_some_and(|company| company.trim() == addressee.trim());
        if !same_company {
            profile = profile
                .with_value(ProfileField::CompanyName, Some(addressee))
                .with_value(ProfileField::CompanyAddress, None);
        }
    }
    let mut photos = document_photos(store, id)?;
    // A repeat request or a complaint carries the first request's photos of the problem.
    if photos.is_empty()
        && let Some(link) = store.follow_link(id).map_err(DraftsError::from)?
        && matches!(link.kind, FollowKind::Repeat | FollowKind::Complaint)
        && let Some(first) = link.draft_id
    {
        photos = document_photos(store, first)?;
    }
    let document = for_draft(&draft, &profile, date)?.with_photos(photos);
    Ok(if collective {
        document.with_co_signers(CoSigners::default())
    } else {
        document
    })
}

/// Writes a document to the file the resident named, whole or not at all: the bytes go to a
/// temporary file beside it, which then replaces it in one step.
pub fn save_document(path: &Path, bytes: &[u8]) -> Result<(), FilingError> {
    replace_file(path, bytes).map_err(|error| FilingError::Write {
        path: path.to_owned(),
        error,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_replaces_the_file_whole_and_a_failure_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("заявка.txt");
        std::fs::write(&path, "прежний текст").unwrap();
        save_document(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");

        let missing = dir.path().join("нет такой папки").join("заявка.txt");
        let error = save_document(&missing, b"new").unwrap_err();
        assert!(matches!(error, FilingError::Write { .. }));
        assert!(
            error.message_ru().starts_with("не удалось записать «"),
            "{}",
            error.message_ru()
        );
        assert!(error.message_ru().contains("нет такой папки"));
        assert_eq!(error.kind(), ErrorKind::Write);
        let shown = EngineError::message_ru(&error);
        assert!(
            shown.starts_with("Не удалось сохранить файл «")
                && shown.ends_with("Выберите другую папку."),
            "{shown}"
        );
    }

    #[test]
    fn a_draft_without_a_request_has_nothing_to_file() {
        let id = DraftId::new(3).unwrap();
        let error = FilingError::Document(DocumentError::NotAssembled(id));
        assert_eq!(error.kind(), ErrorKind::NotReassemblable);
        assert_eq!(
            EngineError::message_ru(&error),
            "У этого черновика нет готовой заявки: сохранять и печатать нечего."
        );
        assert_eq!(
            error.message_ru(),
            "в черновике № 3 нет заявки: она не была составлена"
        );
    }
}
