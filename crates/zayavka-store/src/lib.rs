//! The SQLite store of Zayavka, and the only crate that knows SQL.
//!
//! One database file holds the drafts (the resident's input as typed and as checked, how each
//! draft ended, the assembled request and the resident's own versions), the photos attached to
//! a draft (already cleaned of their metadata by the engine), the context record of each model
//! run, every HTTP attempt, batches and their rows, the case of each filed draft (its filing,
//! answer and closing), a full-text index, and an append-only audit log. The desktop app and the CLI may have it open at once: the file is in
//! WAL mode, every operation is one transaction, and writes take the lock up front
//! (`BEGIN IMMEDIATE`) and wait for each other.
//!
//! The store depends on no other Zayavka crate. It takes and gives plain values — codes as
//! strings or small enums, documents as strings of serialized JSON — and the engine maps its
//! own types onto them. The layout and its migrations are described in ADR 9.
//!
//! ```no_run
//! # fn main() -> Result<(), zayavka_store::StoreError> {
//! use zayavka_store::{NewDraft, Store};
//! let store = Store::open(std::path::Path::new("zayavka.sqlite3"))?;
//! let id = store.create_draft(&NewDraft {
//!     raw_input_json: r#"{"description":"В подъезде не горит свет"}"#.to_owned(),
//!     checked_input_json: None,
//! })?;
//! assert_eq!(store.search_drafts("ПОДЪЕЗД", 10)?[0].id, id);
//! # Ok(()) }
//! ```

mod attachments;
mod audit;
mod batches;
mod cases;
mod columns;
mod drafts;
mod error;
mod eval;
mod faults;
mod migrations;
mod model;
mod pieces;
mod reassemble;
mod recover;
mod schema_check;
mod search;
mod stats;
mod store;

pub use batches::row_input_key;
pub use cases::BroughtIn;
pub use error::{BackupProblem, DatabaseError, SchemaDifference, StoreError, StoreErrorCode};
pub use eval::{EvalCassette, EvalRun, NewEvalRun};
pub use faults::WRITE_POINTS;
pub use migrations::SCHEMA_VERSION;
pub use model::{
    Answer, AnswerResult, AttachmentId, AttachmentRole, AuditEvent, AuditKind, BROUGHT_IN_AUTHOR,
    Batch, BatchFileUpdate, BatchRow, BatchRowRef, BatchRowResult, BatchStatus, Case, ClaimedRow,
    DeletedDraft, DraftFilter, DraftId, DraftOutcome, DraftSummary, DraftVersion, EnsuredBatch,
    Filing, FilingMethod, FinalOutcome, FinishedDraft, FollowKind, FollowLink, NewAttachment,
    NewAttempt, NewBatch, NewBatchRow, NewContextRecord, NewDraft, NewVersion, ParseDraftIdError,
    RemovedAttachment, RowMatch, RowMatching, RowState, StoredAttachment, StoredAttempt,
    StoredContextRecord, StoredDraft,
};
pub use recover::Recovery;
pub use search::{fold, match_query};
pub use stats::{DraftFacts, FactsPeriod};
pub use store::Store;
