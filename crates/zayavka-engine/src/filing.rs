//! A stored draft as the document the resident files, in one place for both front ends (issue
//! 18): the draft read from the store under the profile's header, with its photos as
//! appendices and, for a collective request, the table for neighbours' signatures; rendered in
//! the format asked for; and written to the file the resident named whole or not at all, never
//! half-written over what was there.

use std::path::{Path, PathBuf};

use jiff::civil::Date;
use zayavka_store::{DraftId, Store};

use crate::attachments::{AttachmentError, document_photos};
use crate::document::{CoSigners, DocumentError, FiledDocument, RenderError, for_draft};
use crate::drafts::{DraftsError, get};
use crate::paths::{Paths, io_error_ru, replace_file};
use crate::profile::{ProfileError, load};

/// Why a stored draft could not be made into a document or saved. Each front end words the
/// next step; the messages say what happened.
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
    let profile = load(paths)?;
    let photos = document_photos(store, id)?;
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
    }
}
