//! The engine handle: one value that holds what belongs to one installation — its folders, its
//! keyring, the model clients of this run — and through which a front end reaches the drafts
//! database. The database handle never leaves it: each operation opens the database, does its
//! work and closes it again, so a front end cannot write around the engine's rules, and every
//! thread of the desktop app may call the same handle at once (a SQLite connection is not shared
//! between threads; opening one costs well under a millisecond).
//!
//! Operations that only read open the database to read: when the data folder or its disk cannot
//! be written, they still work, and the handle tells its front end so once per operation
//! ([`Notice::ReadOnlyData`]). Operations that change something open it to write, and on such a
//! disk are refused before anything is touched.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use jiff::civil::Date;
use zayavka_core::{Outcome, SubjectKind};
use zayavka_document::{FiledDocument, Profile};
use zayavka_store::{Batch, DraftFilter, DraftId, Store, StoreError, StoredDraft};

use crate::attachments::{self, AttachmentError, AttachmentSummary, Detached};
use crate::batch::run::{
    BatchError, BatchListItem, BatchSummary, ExportError, ExportFormat, ExportReport,
};
use crate::batch::{BatchRowReport, DocumentsError, DocumentsExport, DocumentsReport};
use crate::database::{open_store, open_store_to_read};
use crate::draft::SessionClients;
use crate::drafts::{self, DraftListItem, DraftsError, StoredReplay};
use crate::filing::{self, FilingError};
use crate::paths::Paths;
use crate::secrets::SecretStore;

/// Something a front end should tell its user that is not an error: the operation went on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Notice {
    /// The data folder cannot be written: the saved drafts were opened to be read only.
    ReadOnlyData,
}

impl Notice {
    /// The notice as one Russian sentence.
    pub fn message_ru(self) -> &'static str {
        match self {
            Notice::ReadOnlyData => {
                "Папка данных доступна только для чтения: черновики можно смотреть, но не изменять."
            }
        }
    }
}

/// Who hears the handle's notices.
type Listener = Arc<dyn Fn(Notice) + Send + Sync>;

/// The engine of one installation, for one run of a front end.
#[derive(Clone)]
pub struct Engine {
    paths: Paths,
    secrets: Arc<dyn SecretStore + Send + Sync>,
    clients: SessionClients,
    listener: Option<Listener>,
}

impl fmt::Debug for Engine {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter
            .debug_struct("Engine")
            .field("paths", &self.paths)
            .field("secrets", &self.secrets.backend_name())
            .field("clients", &self.clients)
            .finish_non_exhaustive()
    }
}

impl Engine {
    /// The engine over these folders and this keyring, with no model client made yet.
    pub fn new(paths: Paths, secrets: Arc<dyn SecretStore + Send + Sync>) -> Engine {
        Engine {
            paths,
            secrets,
            clients: SessionClients::new(),
            listener: None,
        }
    }

    /// The same engine, telling `listener` what its user should know ([`Notice`]).
    #[must_use]
    pub fn with_notices(mut self, listener: impl Fn(Notice) + Send + Sync + 'static) -> Engine {
        self.listener = Some(Arc::new(listener));
        self
    }

    /// The installation's folders.
    pub fn paths(&self) -> &Paths {
        &self.paths
    }

    /// The keyring holding the API keys.
    pub fn secrets(&self) -> &(dyn SecretStore + Send + Sync) {
        self.secrets.as_ref()
    }

    /// The model clients of this run: drafts and batches with the same settings and key share
    /// one, so a provider's access token is exchanged once per run, not once per draft.
    pub fn clients(&self) -> &SessionClients {
        &self.clients
    }

    /// The database, to be read; on a disk that cannot be written, for reading only.
    fn read(&self) -> Result<Store, StoreError> {
        let store = open_store_to_read(&self.paths)?;
        if store.is_read_only()
            && let Some(listener) = &self.listener
        {
            listener(Notice::ReadOnlyData);
        }
        Ok(store)
    }

    /// The database, to be changed.
    fn write(&self) -> Result<Store, StoreError> {
        open_store(&self.paths)
    }

    // -----------------------------------------------------------------------------------------
    // Drafts

    /// The stored drafts that pass `filter`, newest first.
    pub fn drafts(&self, filter: &DraftFilter) -> Result<Vec<DraftListItem>, DraftsError> {
        drafts::list(&self.read()?, filter)
    }

    /// The stored drafts whose words match `text`, best first, at most `limit`.
    pub fn search_drafts(&self, text: &str, limit: u32) -> Result<Vec<DraftListItem>, DraftsError> {
        drafts::search(&self.read()?, text, limit)
    }

    /// Stored draft `id` in full.
    pub fn draft(&self, id: DraftId) -> Result<StoredDraft, DraftsError> {
        drafts::get(&self.read()?, id)
    }

    /// Stores the resident's edit of draft `id` as its newest version; gives the version's
    /// number.
    pub fn edit_draft(&self, id: DraftId, title: &str, body: &str) -> Result<u32, DraftsError> {
        drafts::edit(&self.write()?, id, title, body)
    }

    /// Deletes draft `id` for good, with its versions and photos.
    pub fn delete_draft(&self, id: DraftId) -> Result<(), DraftsError> {
        drafts::delete(&self.write()?, id)
    }

    /// Assembles ready draft `id` again with the subject the resident confirmed, from its stored
    /// model response: no model call ([`drafts::reassemble`]).
    pub fn reassemble_draft(
        &self,
        id: DraftId,
        subject: SubjectKind,
    ) -> Result<(StoredDraft, Outcome), DraftsError> {
        drafts::reassemble(&self.write()?, id, subject)
    }

    /// Stored draft `id`'s response evaluated again without the network, and whether today's
    /// request is byte-identical to the stored one.
    pub fn replay_draft(&self, id: DraftId) -> Result<StoredReplay, DraftsError> {
        drafts::replay_stored(&self.read()?, id)
    }

    /// Copies the whole database, consistent at one moment, to `target`.
    pub fn backup_drafts(&self, target: &Path) -> Result<(), DraftsError> {
        drafts::backup(&self.read()?, target)
    }

    /// Puts a backup in place of the database ([`drafts::restore`]).
    pub fn restore_drafts(
        &self,
        file: &Path,
        replace: bool,
    ) -> Result<drafts::Restored, DraftsError> {
        drafts::restore(&self.paths, file, replace)
    }

    /// Saves what can be read of a damaged database ([`drafts::recover`]).
    pub fn recover_drafts(&self, out: Option<&Path>) -> Result<drafts::Recovered, DraftsError> {
        drafts::recover(&self.paths, out)
    }

    // -----------------------------------------------------------------------------------------
    // Photos

    /// The photos attached to draft `id`, in their order.
    pub fn photos(&self, id: DraftId) -> Result<Vec<AttachmentSummary>, AttachmentError> {
        attachments::attachments(&self.read().map_err(AttachmentError::Store)?, id)
    }

    /// Attaches photos to draft `id`, all or none, cleaned of location and camera metadata;
    /// gives the photos added.
    pub fn attach_photos(
        &self,
        id: DraftId,
        files: &[PathBuf],
    ) -> Result<Vec<AttachmentSummary>, AttachmentError> {
        attachments::attach(&self.write().map_err(AttachmentError::Store)?, id, files)
    }

    /// Removes photo `number` from draft `id`; the photos after it move up.
    pub fn detach_photo(&self, id: DraftId, number: u32) -> Result<Detached, AttachmentError> {
        attachments::detach(&self.write().map_err(AttachmentError::Store)?, id, number)
    }

    // -----------------------------------------------------------------------------------------
    // Documents

    /// The document of stored draft `id`, dated `date`, with the profile's header and the
    /// draft's photos ([`filing::filed_document`]).
    pub fn filed_document(
        &self,
        id: DraftId,
        date: Date,
        collective: bool,
    ) -> Result<FiledDocument, FilingError> {
        let store = self.read().map_err(DraftsError::from)?;
        filing::filed_document(&store, &self.paths, id, date, collective)
    }

    // -----------------------------------------------------------------------------------------
    // Batches

    /// The stored batches, newest first.
    pub fn batches(&self) -> Result<Vec<BatchListItem>, BatchError> {
        crate::batch::run::list_batches(&self.read()?)
    }

    /// The batch a person named by its number or id.
    pub fn find_batch(&self, name: &str) -> Result<Batch, BatchError> {
        crate::batch::find_batch(&self.read()?, name)
    }

    /// Where stored batch `batch_id` stands.
    pub fn batch_summary(&self, batch_id: &str) -> Result<BatchSummary, BatchError> {
        crate::batch::run::batch_summary(&self.read()?, batch_id)
    }

    /// Each row of stored batch `batch_id` with its status.
    pub fn batch_rows(&self, batch_id: &str) -> Result<Vec<BatchRowReport>, BatchError> {
        crate::batch::batch_row_reports(&self.read()?, batch_id)
    }

    /// Writes stored batch `batch_id` into `out_dir` as text, JSONL or CSV
    /// ([`crate::batch::run::export_batch`]).
    pub fn export_batch(
        &self,
        batch_id: &str,
        format: ExportFormat,
        out_dir: &Path,
    ) -> Result<ExportReport, ExportError> {
        let store = self.read().map_err(BatchError::from)?;
        crate::batch::run::export_batch(&store, batch_id, format, out_dir)
    }

    /// Writes one document per ready row of stored batch `batch_id` into `dir`
    /// ([`crate::batch::export_documents`]).
    pub fn export_documents(
        &self,
        batch_id: &str,
        profile: &Profile,
        options: &DocumentsExport,
        dir: &Path,
    ) -> Result<DocumentsReport, DocumentsError> {
        let store = self.read().map_err(BatchError::from)?;
        crate::batch::export_documents(&store, batch_id, profile, options, dir)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::secrets::MemoryStore;

    fn engine(home: &Path) -> Engine {
        Engine::new(Paths::under(home), Arc::new(MemoryStore::new()))
    }

    #[test]
    fn an_empty_data_folder_lists_no_drafts_and_no_batches() {
        let home = tempfile::tempdir().unwrap();
        let engine = engine(home.path());
        assert!(engine.drafts(&DraftFilter::default()).unwrap().is_empty());
        assert!(engine.batches().unwrap().is_empty());
        let missing = DraftId::new(7).unwrap();
        assert!(matches!(
            engine.draft(missing),
            Err(DraftsError::NotFound(id)) if id == missing
        ));
    }
}
