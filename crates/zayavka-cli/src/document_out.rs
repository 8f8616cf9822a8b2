//! Writing a draft's document to a file: the filed document of a draft — a request, a repeat
//! request, a complaint — rendered as txt, pdf or docx, and bytes saved to a path the engine's
//! safe way (never over a file half-written). It sits below the command files
//! (`drafts_cmd.rs`, `case_cmd.rs`) and calls none of them.

use std::io::Write as _;
use std::path::Path;

use zayavka_engine::{DocumentError, DocumentFormat, DraftId, Engine, FilingError};

/// The filed document of draft `id`, dated `date`, rendered as `format`; `collective` adds the
/// table where neighbours sign.
pub(crate) fn render(
    engine: &Engine,
    id: DraftId,
    format: DocumentFormat,
    date: jiff::civil::Date,
    collective: bool,
) -> Result<Vec<u8>, FilingError> {
    engine
        .filed_document(id, date, collective)
        .and_then(|document| Ok(document.render(format)?))
}

/// Why a draft's document could not be made, as `drafts export` says it: a draft that was
/// never assembled points to its json, where the text the resident typed is.
pub(crate) fn document_error(error: FilingError) -> anyhow::Error {
    match error {
        FilingError::Document(error @ DocumentError::NotAssembled(_)) => {
            anyhow::anyhow!("{error}. Выгрузите его в json, чтобы увидеть введённый текст")
        }
        other => anyhow::anyhow!(other.message_ru()),
    }
}

/// `bytes` saved to `path` by the engine's `save_document`, its refusal in Russian.
pub(crate) fn save(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    zayavka_engine::save_document(path, bytes).map_err(|error| anyhow::anyhow!(error.message_ru()))
}

/// Draft `id`'s `bytes` saved to `path`, and said so on standard error.
pub(crate) fn save_draft(path: &Path, id: DraftId, bytes: &[u8]) -> anyhow::Result<()> {
    save(path, bytes)?;
    writeln!(
        std::io::stderr(),
        "Черновик № {id} записан в {}.",
        path.display()
    )?;
    Ok(())
}

/// Draft `id`'s filed document, dated `date`, written to `path` as `format`, as
/// `drafts export --out` writes it.
pub(crate) fn write_document(
    engine: &Engine,
    id: DraftId,
    format: DocumentFormat,
    date: jiff::civil::Date,
    collective: bool,
    path: &Path,
) -> anyhow::Result<()> {
    let bytes = render(engine, id, format, date, collective).map_err(document_error)?;
    save_draft(path, id, &bytes)
}
