//! The A4 page the PDF and its photo appendix are laid out on: its size, margins and type
//! sizes, and the error of writing a PDF.

/// A4 in points.
pub(crate) const PAGE_WIDTH: f32 = 595.28;
pub(crate) const PAGE_HEIGHT: f32 = 841.89;
/// Margins in points: 25 mm on the left for a binder, 15 mm on the right, 20 mm top and bottom.
pub(crate) const MARGIN_LEFT: f32 = 70.87;
pub(crate) const MARGIN_RIGHT: f32 = 42.52;
pub(crate) const MARGIN_TOP: f32 = 56.69;
pub(crate) const MARGIN_BOTTOM: f32 = 56.69;
pub(crate) const CONTENT_WIDTH: f32 = PAGE_WIDTH - MARGIN_LEFT - MARGIN_RIGHT;
/// Type sizes in points: the text, and the title.
pub(crate) const BODY_SIZE: f32 = 12.0;
pub(crate) const TITLE_SIZE: f32 = 14.0;
/// The distance between lines, as a multiple of the type size.
pub(crate) const LINE_HEIGHT: f32 = 1.4;
/// The caption over a photo's page («Приложение 1»), as large as the title.
pub(crate) const CAPTION_SIZE: f32 = TITLE_SIZE;

/// Why a PDF could not be written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PdfError {
    /// krilla refused the document (a font or a value it cannot write).
    #[error("не удалось составить PDF: {0}")]
    Render(String),
}
