//! A stored draft as a document. The document itself — its model, its text, PDF and DOCX forms
//! and its photo appendices — is the pure `zayavka-document` crate's; this module adds what
//! reads a stored draft, and re-exports the document's types for the front ends.

use jiff::civil::Date;
use zayavka_store::{DraftId, StoredDraft};

use crate::drafts::{DraftsError, stored_request};
use crate::profile::Profile;

pub use zayavka_document::{
    CO_SIGNERS_COLUMNS, CO_SIGNERS_HEADING, CO_SIGNERS_SENTENCE, CoSigners, DocumentFormat,
    FiledDocument, HeaderLine, RenderError, date_ru,
};

/// Why a draft cannot become a document.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DocumentError {
    /// The draft holds no request: it was never assembled and the resident wrote no version.
    #[error("в черновике № {0} нет заявки: она не была составлена")]
    NotAssembled(DraftId),
    /// The stored draft does not read back.
    #[error("{0}")]
    Drafts(#[from] DraftsError),
}

impl DocumentError {
    /// What happened, in Russian.
    pub fn message_ru(&self) -> String {
        self.to_string()
    }
}

impl crate::error::EngineError for DocumentError {
    fn kind(&self) -> crate::error::ErrorKind {
        match self {
            DocumentError::NotAssembled(_) => crate::error::ErrorKind::NotReassemblable,
            DocumentError::Drafts(error) => error.kind(),
        }
    }

    fn message_ru(&self) -> String {
        DocumentError::message_ru(self)
    }
}

/// The document of a stored draft: the resident's latest edit if they made one, else the
/// assembled request, under the profile's header and dated `date`.
pub fn for_draft(
    draft: &StoredDraft,
    profile: &Profile,
    date: Date,
) -> Result<FiledDocument, DocumentError> {
    if let Some(latest) = draft.versions.last() {
        return Ok(FiledDocument::new(
            &latest.title,
            &latest.body,
            profile,
            date,
        ));
    }
    let request = stored_request(draft)?.ok_or(DocumentError::NotAssembled(draft.summary.id))?;
    Ok(FiledDocument::new(
        request.title(),
        request.body(),
        profile,
        date,
    ))
}
