//! The document a resident files, and the photos it carries.
//!
//! Pure: bytes and values in, bytes and values out. Nothing here reads or writes a file, opens
//! a database, asks the clock or depends on another Zayavka crate, so the same draft, profile
//! and date always give the same document, and the engine keeps only what reads the store and
//! the files (ADR 4). The architecture tests hold it to that, and to being the only crate that
//! decodes an image.
//!
//! - **The document** ([`FiledDocument`], ADR 16): the header from the [`Profile`] («Кому»,
//!   «От»), the title, the body exactly as given, the date in Russian form and a signature
//!   line; for a collective request the neighbours' signature table ([`CoSigners`]); the
//!   photos as appendices. Rendered as text, PDF or DOCX ([`DocumentFormat`]).
//! - **The photos** (ADR 18): [`prepare_photo`] recognises a JPEG or PNG by its bytes, checks
//!   it whole and within the size limits, removes its metadata and turns it upright;
//!   [`metadata_left`] is the independent second check; [`DocumentPhoto`] is a stored photo as
//!   a document places it.
//! - **The profile's values** ([`Profile`], [`ProfileField`]): what the header prints. Checking
//!   a value the resident typed, and storing the profile, are the engine's.

mod document;
mod photo;
mod profile;

pub use document::{
    BLANK, CO_SIGNERS_COLUMNS, CO_SIGNERS_HEADING, CO_SIGNERS_SENTENCE, CoSigners,
    DEFAULT_CO_SIGNER_ROWS, DocumentFormat, DocxError, FiledDocument, HeaderLine,
    MAX_CO_SIGNER_ROWS, PdfError, RenderError, date_ru,
};
pub use photo::{
    DocumentPhoto, PHOTO_MAX_PIXELS, PHOTO_MAX_SIDE, PHOTOS_PER_DRAFT, PhotoFormat, PhotoProblem,
    PreparedPhoto, metadata_left, photo_label, photo_name, prepare_photo, size_ru,
};
pub use profile::{Profile, ProfileField};
