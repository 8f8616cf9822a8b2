//! The plain values the store takes and gives back.
//!
//! The store depends on no other Zayavka crate: codes are strings or the small enums below,
//! documents are strings of serialized JSON, and the engine maps its own types onto them.

use std::fmt;
use std::str::FromStr;

use jiff::Timestamp;
use jiff::civil::Date;
use serde::{Deserialize, Serialize};
use zayavka_codes::stable_codes;

/// The id of a stored draft: a positive integer, never reused after a deletion. Only a positive
/// number can become one — through [`DraftId::new`], parsing, serde or a database column — so
/// an id in hand is one the store could have given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(as = "i64"))]
#[serde(try_from = "i64", into = "i64")]
pub struct DraftId(i64);

impl DraftId {
    /// The id `id`, when it is positive.
    pub const fn new(id: i64) -> Option<DraftId> {
        if id > 0 { Some(DraftId(id)) } else { None }
    }

    /// The raw id.
    pub const fn get(self) -> i64 {
        self.0
    }
}

impl TryFrom<i64> for DraftId {
    type Error = ParseDraftIdError;

    fn try_from(id: i64) -> Result<DraftId, ParseDraftIdError> {
        DraftId::new(id).ok_or(ParseDraftIdError)
    }
}

impl From<DraftId> for i64 {
    fn from(id: DraftId) -> i64 {
        id.0
    }
}

impl rusqlite::types::FromSql for DraftId {
    fn column_result(value: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        let id = i64::column_result(value)?;
        DraftId::new(id).ok_or(rusqlite::types::FromSqlError::OutOfRange(id))
    }
}

impl fmt::Display for DraftId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A string that is not a draft id: ids are positive whole numbers.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a draft id is a positive whole number")]
pub struct ParseDraftIdError;

impl FromStr for DraftId {
    type Err = ParseDraftIdError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        // Only plain digits: `+5` or ` 5` are refused so that an id has one spelling.
        if text.is_empty() || !text.bytes().all(|byte| byte.is_ascii_digit()) {
            return Err(ParseDraftIdError);
        }
        text.parse::<i64>()
            .ok()
            .and_then(DraftId::new)
            .ok_or(ParseDraftIdError)
    }
}

stable_codes! {
    /// Where a draft stands.
    pub enum DraftOutcome {
        /// Stored, not yet finished: the model call is under way, or was interrupted.
        Pending => "pending",
        /// A request was assembled.
        Ready => "ready",
        /// The resident must change the description.
        NeedsUser => "needs_user",
        /// The model's output could not be used.
        Rejected => "rejected",
        /// A technical failure.
        Failed => "failed",
        /// The input was refused before any call.
        InvalidInput => "invalid_input",
    }
}

stable_codes! {
    /// How a draft ended: every [`DraftOutcome`] except pending, so that finishing a draft
    /// cannot leave it pending.
    pub enum FinalOutcome {
        /// See [`DraftOutcome::Ready`].
        Ready => "ready",
        /// See [`DraftOutcome::NeedsUser`].
        NeedsUser => "needs_user",
        /// See [`DraftOutcome::Rejected`].
        Rejected => "rejected",
        /// See [`DraftOutcome::Failed`].
        Failed => "failed",
        /// See [`DraftOutcome::InvalidInput`].
        InvalidInput => "invalid_input",
    }
}

impl From<FinalOutcome> for DraftOutcome {
    fn from(outcome: FinalOutcome) -> DraftOutcome {
        match outcome {
            FinalOutcome::Ready => DraftOutcome::Ready,
            FinalOutcome::NeedsUser => DraftOutcome::NeedsUser,
            FinalOutcome::Rejected => DraftOutcome::Rejected,
            FinalOutcome::Failed => DraftOutcome::Failed,
            FinalOutcome::InvalidInput => DraftOutcome::InvalidInput,
        }
    }
}

stable_codes! {
    /// Where a batch row stands.
    pub enum RowState {
        /// Not yet run, or interrupted.
        Pending => "pending",
        /// Finished; never sent again.
        Done => "done",
        /// Failed in a way a later run may fix; sent again on resume.
        FailedRetryable => "failed_retryable",
        /// Failed for good; not sent again.
        Failed => "failed",
    }
}

stable_codes! {
    /// The kind of an audit event.
    pub enum AuditKind {
        /// A draft was stored, pending.
        DraftCreated => "draft_created",
        /// A draft ended; the detail is its outcome.
        DraftFinished => "draft_finished",
        /// The resident stored a new version; the detail is the author.
        DraftEdited => "draft_edited",
        /// A draft was deleted.
        DraftDeleted => "draft_deleted",
        /// A draft was set back to pending to be sent again.
        DraftRetried => "draft_retried",
        /// A batch was stored with its rows.
        BatchCreated => "batch_created",
        /// A batch row got its draft.
        BatchRowClaimed => "batch_row_claimed",
        /// A batch row got a state; the detail is the state.
        BatchRowFinished => "batch_row_finished",
        /// A photo was attached to a draft; the hash is the stored bytes', the detail
        /// `attachment_<id>`.
        AttachmentAdded => "attachment_added",
        /// A photo was removed from a draft; hash and detail as when it was added.
        AttachmentRemoved => "attachment_removed",
        /// A later run read the batch's file again and matched its rows; the hash is the
        /// file's.
        BatchFileRead => "batch_file_read",
        /// The resident marked a ready draft filed; the detail is how it was filed.
        DraftFiled => "draft_filed",
        /// The resident changed a filing's facts (a date, the number, the delivery); the
        /// detail is how it was filed.
        FilingAmended => "filing_amended",
        /// The resident took back a filing mark; the case and its photos were deleted.
        FilingWithdrawn => "filing_withdrawn",
        /// The resident recorded the answer; the detail is its result.
        AnswerRecorded => "answer_recorded",
        /// The resident closed the case.
        CaseClosed => "case_closed",
        /// The resident opened a closed case again.
        CaseReopened => "case_reopened",
        /// A draft was written after another (the draft id); the detail is the kind.
        FollowUpCreated => "follow_up_created",
    }
}

stable_codes! {
    /// How a request was filed.
    pub enum FilingMethod {
        /// Handed in, with the second copy stamped.
        InPerson => "in_person",
        /// A registered letter with notice of delivery.
        Letter => "letter",
        /// E-mail.
        Email => "email",
        /// ГИС ЖКХ or Госуслуги.Дом.
        Gis => "gis",
        /// The company's site or app.
        Site => "site",
        /// Some other way.
        Other => "other",
    }
}

stable_codes! {
    /// What the answer did about the problem.
    pub enum AnswerResult {
        /// The problem was solved.
        Solved => "solved",
        /// Partly solved.
        Partly => "partly",
        /// The company refused.
        Refused => "refused",
        /// The answer did not address the problem.
        Unaddressed => "unaddressed",
    }
}

stable_codes! {
    /// How a draft follows another.
    pub enum FollowKind {
        /// A corrected text of a filed draft, which itself can no longer change.
        Correction => "correction",
        /// A repeat request to the same company.
        Repeat => "repeat",
        /// A complaint to the housing inspectorate.
        Complaint => "complaint",
    }
}

stable_codes! {
    /// What a photo attached to a draft shows.
    pub enum AttachmentRole {
        /// The problem: printed as the request's appendix.
        Evidence => "evidence",
        /// Proof of filing: the stamped copy, the postal receipt.
        Filing => "filing",
        /// The answer's pages.
        Answer => "answer",
    }
}

/// The facts of a filing, as the resident gives them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Filing {
    /// The day the request was filed.
    pub filed_on: Date,
    /// How.
    pub method: FilingMethod,
    /// The incoming number the addressee gave, as written.
    pub number: Option<String>,
    /// To whom, as the resident writes it.
    pub addressee: Option<String>,
    /// For a letter, the day it was delivered.
    pub delivered_on: Option<Date>,
}

/// The answer to a filed request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Answer {
    /// The day the answer came.
    pub answered_on: Date,
    /// What it did about the problem.
    pub result: AnswerResult,
}

/// The case of a filed draft: the filing, the answer and whether it is closed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Case {
    /// The filed draft.
    pub draft_id: DraftId,
    /// The filing's facts.
    pub filing: Filing,
    /// The answer, once recorded.
    pub answer: Option<Answer>,
    /// The day the resident closed the case.
    pub closed_on: Option<Date>,
    /// The draft this one follows, and how, when it does.
    pub follows: Option<FollowLink>,
    /// When the filing was first recorded.
    pub created_at: Timestamp,
    /// When anything about the case last changed.
    pub updated_at: Timestamp,
}

/// A draft written after another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FollowLink {
    /// The earlier draft; `None` when it was deleted.
    pub draft_id: Option<DraftId>,
    /// How this one follows it.
    pub kind: FollowKind,
}

/// A draft as it is first stored, before anything else happens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewDraft {
    /// The resident's input exactly as typed, as a JSON document.
    pub raw_input_json: String,
    /// The input as checked (normalised), as a JSON document; `None` when it was invalid.
    pub checked_input_json: Option<String>,
}

/// How a draft ended, as [`crate::Store::finish_draft`] stores it.
#[derive(Debug, Clone, PartialEq)]
pub struct FinishedDraft {
    /// The outcome.
    pub outcome: FinalOutcome,
    /// The outcome's reason code.
    pub reason: Option<String>,
    /// For a failure, whether retrying may help.
    pub retryable: Option<bool>,
    /// The request's title, when one was assembled.
    pub title: Option<String>,
    /// The request's body, when one was assembled.
    pub body: Option<String>,
    /// The whole assembled request with its typed sections, as the engine serializes it.
    pub request_json: Option<String>,
    /// The warnings for the resident, as a JSON array.
    pub warnings_json: String,
    /// The subject whose legal paragraph was included.
    pub subject_module: Option<String>,
    /// Why no subject paragraph was included.
    pub legal_omission: Option<String>,
    /// Whether a model wrote the description.
    pub model_used: bool,
}

/// One model run of a draft, as the engine's context record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewContextRecord {
    /// The version of the record's document format.
    pub format_version: u32,
    /// The whole record document.
    pub record_json: String,
    /// The version of Zayavka that made the draft.
    pub app_version: String,
    /// The system prompt's version.
    pub prompt_version: String,
    /// The system prompt's SHA-256.
    pub prompt_sha256: String,
    /// The output schema's id.
    pub schema_id: String,
    /// The output schema's version.
    pub schema_version: u32,
    /// The SHA-256 of the registered schema file.
    pub schema_sha256: String,
    /// The SHA-256 of the transport schema, when one was sent.
    pub transport_schema_sha256: Option<String>,
    /// The legal catalogue's version.
    pub legal_catalogue_version: String,
    /// The provider profile's name.
    pub provider_profile: String,
    /// The provider's host.
    pub provider_host: String,
    /// The model.
    pub model: String,
}

/// One HTTP attempt.
#[derive(Debug, Clone, PartialEq)]
pub struct NewAttempt {
    /// The attempt's position in its call, from 1.
    pub number: u32,
    /// When it started, in milliseconds since the Unix epoch.
    pub started_at_unix_ms: u64,
    /// How long it took.
    pub duration_ms: u64,
    /// The HTTP status, if one arrived.
    pub http_status: Option<u16>,
    /// How it failed, as a code.
    pub error_kind: Option<String>,
    /// Why another attempt followed.
    pub retry_reason: Option<String>,
    /// Prompt tokens reported.
    pub prompt_tokens: Option<u64>,
    /// Completion tokens reported.
    pub completion_tokens: Option<u64>,
    /// Total tokens reported.
    pub total_tokens: Option<u64>,
    /// The estimated cost, when the profile has prices.
    pub cost: Option<f64>,
}

/// The author of the version that holds a brought-in request's text exactly as it was filed
/// before Zayavka (issue 38, [`crate::Store::bring_in`]).
pub const BROUGHT_IN_AUTHOR: &str = "brought_in";

/// A new version of a draft's request text, written by someone other than the assembly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewVersion {
    /// Who wrote it, such as `resident`.
    pub author: String,
    /// The title.
    pub title: String,
    /// The body.
    pub body: String,
}

/// A stored version of a draft's request text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DraftVersion {
    /// The version number, from 1.
    pub version: u32,
    /// Who wrote it.
    pub author: String,
    /// The title.
    pub title: String,
    /// The body.
    pub body: String,
    /// When it was stored.
    pub created_at: Timestamp,
}

/// A stored context record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredContextRecord {
    /// The record's id.
    pub id: i64,
    /// When it was stored.
    pub created_at: Timestamp,
    /// Everything the record was stored with.
    pub record: NewContextRecord,
}

/// A stored attempt.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredAttempt {
    /// The id of the context record of its run, if there was one.
    pub record_id: Option<i64>,
    /// Everything the attempt was stored with.
    pub attempt: NewAttempt,
}

/// Where a draft of a batch comes from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BatchRowRef {
    /// The batch's id.
    pub batch_id: String,
    /// The row number, as a spreadsheet shows it.
    pub row: u32,
}

/// A whole stored draft, with its versions, records and attempts.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredDraft {
    /// The summary columns.
    pub summary: DraftSummary,
    /// The request's body as assembled.
    pub body: Option<String>,
    /// The retry flag of a failure.
    pub retryable: Option<bool>,
    /// The assembled request document.
    pub request_json: Option<String>,
    /// The warnings, as a JSON array.
    pub warnings_json: String,
    /// Why no subject paragraph was included.
    pub legal_omission: Option<String>,
    /// Whether a model wrote the description.
    pub model_used: bool,
    /// The resident's versions, oldest first.
    pub versions: Vec<DraftVersion>,
    /// The context records, oldest first.
    pub records: Vec<StoredContextRecord>,
    /// The attempts, in the order they were stored.
    pub attempts: Vec<StoredAttempt>,
}

/// What a list or a search shows of a draft.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DraftSummary {
    /// The id.
    pub id: DraftId,
    /// When it was first stored.
    pub created_at: Timestamp,
    /// When it last changed.
    pub updated_at: Timestamp,
    /// Where it stands.
    pub outcome: DraftOutcome,
    /// The outcome's reason code.
    pub reason: Option<String>,
    /// The assembled title.
    pub title: Option<String>,
    /// The subject whose legal paragraph was included.
    pub subject_module: Option<String>,
    /// The batch row it belongs to.
    pub batch: Option<BatchRowRef>,
    /// The input exactly as typed.
    pub raw_input_json: String,
    /// The input as checked, when it was valid.
    pub checked_input_json: Option<String>,
    /// The number of the resident's latest version, if there is one.
    pub latest_version: Option<u32>,
}

/// Which drafts [`crate::Store::list_drafts`] returns.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DraftFilter {
    /// Only drafts with this outcome.
    pub outcome: Option<DraftOutcome>,
    /// Only drafts about this subject kind: the legal module that was included, or the subject
    /// the resident confirmed.
    pub subject: Option<String>,
    /// Only drafts stored at or after this moment. A timestamp, not a date, because the
    /// engine knows the resident's time zone and the store does not.
    pub since: Option<Timestamp>,
    /// Only drafts of this batch.
    pub batch_id: Option<String>,
    /// At most this many; all when `None`.
    pub limit: Option<u32>,
}

/// A batch as the runner first stores it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewBatch {
    /// The batch's id, 64 lower-case hexadecimal characters, chosen by the caller once; the
    /// store gives the batch its short number.
    pub id: String,
    /// The SHA-256 of the file's content, in lower-case hex.
    pub content_sha256: String,
    /// The file's path, when it was run from one (canonical, as the engine resolved it).
    pub source_path: Option<String>,
    /// The file's name as given.
    pub file_name: String,
    /// How many data rows the file has, valid or not.
    pub row_count: u32,
    /// The batch's settings, as a JSON document.
    pub settings_json: String,
}

/// A batch row as the runner first stores it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewBatchRow {
    /// The row number as a spreadsheet shows it (the header is row 1).
    pub row_number: u32,
    /// The row's input as read, as a JSON document.
    pub raw_input_json: String,
    /// The row's input as checked, when it was valid.
    pub checked_input_json: Option<String>,
    /// The row's other columns, for the document header only; never sent to a model.
    pub header_json: Option<String>,
}

/// A stored batch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Batch {
    /// The batch's id (for batches stored before version 4, the hash of their file).
    pub id: String,
    /// The batch's short number, 1, 2, 3…, which people type.
    pub number: u32,
    /// The file's name as last run.
    pub file_name: String,
    /// The file's path as last run, when it was run from one.
    pub source_path: Option<String>,
    /// The SHA-256 of the file's content as last run.
    pub content_sha256: String,
    /// When it was first stored.
    pub created_at: Timestamp,
    /// When a run last stored the file's rows.
    pub updated_at: Timestamp,
    /// How many data rows the file had as last run.
    pub row_count: u32,
    /// The settings of the first run.
    pub settings_json: String,
    /// How many rows are stored, including those no longer in the file.
    pub stored_rows: u32,
}

/// What a later run of a batch's file says about the batch: its name, where it lies now, its
/// content and how many rows it has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchFileUpdate {
    /// The file's name.
    pub file_name: String,
    /// The file's path, when it was run from one.
    pub source_path: Option<String>,
    /// The SHA-256 of the file's content.
    pub content_sha256: String,
    /// How many data rows the file has, valid or not.
    pub row_count: u32,
}

/// How one row of a file relates to the rows a batch already holds. Rows are recognised by
/// their input (its key, [`crate::row_input_key`]), not by their place in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowMatch {
    /// A stored row holds the same input; it keeps its draft and its state.
    Same {
        /// The stored row's key in the batch (its `row_number`).
        entry: u32,
        /// The stored row's state.
        state: RowState,
        /// Whether its «ФИО», «Квартира» or «Телефон» differ from the stored ones.
        header_changed: bool,
    },
    /// No stored row holds this input, and the row at this place in the file as last run held
    /// something else, which is no longer in the file: the activist changed the row.
    Changed {
        /// The stored row it replaces.
        replaces: u32,
    },
    /// No stored row holds this input.
    New,
}

/// How a file's rows match a stored batch, row by row, and which stored rows are no longer in
/// the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowMatching {
    /// One entry per row given, in the same order.
    pub rows: Vec<RowMatch>,
    /// The stored rows (their `row_number`) that matched no row of the file.
    pub removed: Vec<u32>,
}

/// The answer of [`crate::Store::ensure_batch`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnsuredBatch {
    /// The batch as stored.
    pub batch: Batch,
    /// Whether this call stored it; `false` when it was already there and nothing was added.
    pub created: bool,
}

/// A stored batch row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchRow {
    /// The row's key in the batch, which its draft refers to: its number in the file when it
    /// was first stored.
    pub row_number: u32,
    /// Its number in the file as last run; `None` when it is no longer in the file.
    pub file_row: Option<u32>,
    /// The row's input as read.
    pub raw_input_json: String,
    /// The row's input as checked.
    pub checked_input_json: Option<String>,
    /// The row's other columns.
    pub header_json: Option<String>,
    /// Where it stands.
    pub state: RowState,
    /// Its draft, once claimed (and unless deleted).
    pub draft_id: Option<DraftId>,
}

/// A row of a batch's file with what became of it, as [`crate::Store::batch_row_results`]
/// lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchRowResult {
    /// Its number in the file as last run.
    pub file_row: u32,
    /// Its key in the batch.
    pub row_number: u32,
    /// The row's input as read.
    pub raw_input_json: String,
    /// The row's input as checked; `None` for a row that failed its checks.
    pub checked_input_json: Option<String>,
    /// The row's other columns.
    pub header_json: Option<String>,
    /// Where it stands.
    pub state: RowState,
    /// Its draft, once claimed.
    pub draft_id: Option<DraftId>,
    /// The draft's outcome.
    pub outcome: Option<DraftOutcome>,
    /// The outcome's reason code.
    pub reason: Option<String>,
    /// Whether a failure may pass on its own.
    pub retryable: Option<bool>,
    /// The request's title: the resident's latest edit, or as assembled.
    pub title: Option<String>,
}

/// The answer of [`crate::Store::claim_row`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClaimedRow {
    /// The row's one draft.
    pub draft_id: DraftId,
    /// Where the draft stands: not pending when an earlier run finished it but stopped before
    /// recording the row's state, in which case it must not be sent again.
    pub outcome: DraftOutcome,
    /// Whether this call created the draft.
    pub created: bool,
}

/// The totals of a batch.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BatchStatus {
    /// The rows of the file as last run.
    pub rows: u32,
    /// Rows without a draft yet.
    pub unclaimed: u32,
    /// Rows by state: pending, done, failed_retryable, failed.
    pub pending_rows: u32,
    /// See [`BatchStatus::pending_rows`].
    pub done_rows: u32,
    /// See [`BatchStatus::pending_rows`].
    pub failed_retryable_rows: u32,
    /// See [`BatchStatus::pending_rows`].
    pub failed_rows: u32,
    /// Drafts by outcome.
    pub pending: u32,
    /// See [`BatchStatus::pending`].
    pub ready: u32,
    /// See [`BatchStatus::pending`].
    pub needs_user: u32,
    /// See [`BatchStatus::pending`].
    pub rejected: u32,
    /// See [`BatchStatus::pending`].
    pub failed: u32,
    /// See [`BatchStatus::pending`].
    pub invalid_input: u32,
    /// Tokens over all attempts of the batch's drafts.
    pub prompt_tokens: u64,
    /// See [`BatchStatus::prompt_tokens`].
    pub completion_tokens: u64,
    /// See [`BatchStatus::prompt_tokens`].
    pub total_tokens: u64,
    /// The summed cost, when any attempt was priced.
    pub cost: Option<f64>,
    /// Stored rows no longer in the file as last run (not counted above; their drafts stay).
    pub removed_rows: u32,
}

/// One audit event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditEvent {
    /// Its position in the log, increasing.
    pub seq: i64,
    /// When it happened.
    pub at: Timestamp,
    /// What happened.
    pub kind: AuditKind,
    /// The draft concerned.
    pub draft_id: Option<DraftId>,
    /// The batch concerned.
    pub batch_id: Option<String>,
    /// The batch row concerned.
    pub batch_row: Option<u32>,
    /// The SHA-256 of the stored document concerned.
    pub sha256: Option<String>,
    /// A code: the outcome, the row state or the author.
    pub detail: Option<String>,
}

/// The answer of [`crate::Store::delete_draft`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeletedDraft {
    /// Whether the write-ahead log was emptied afterwards. `false` when another connection
    /// still reads an older snapshot; the freed bytes then leave the log at the next
    /// [`crate::Store::checkpoint`] or when the last connection closes.
    pub log_cleared: bool,
}

/// The id of a stored attachment: never reused, so the audit log's ids keep their meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct AttachmentId(pub(crate) i64);

impl AttachmentId {
    /// The raw id.
    pub const fn get(self) -> i64 {
        self.0
    }
}

/// A photo to attach, as the engine prepared it: metadata already removed, dimensions read.
/// The store checks nothing about the image itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewAttachment {
    /// `image/jpeg` or `image/png`.
    pub media_type: String,
    /// The width in pixels, as the photo is shown.
    pub width: u32,
    /// The height in pixels, as the photo is shown.
    pub height: u32,
    /// The bytes to store.
    pub bytes: Vec<u8>,
}

/// A stored attachment, without its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredAttachment {
    /// Its id.
    pub id: AttachmentId,
    /// Its number in the draft's list, counting from 1 in the order of attaching; numbers
    /// close up when a photo is removed.
    pub number: u32,
    /// The draft it belongs to.
    pub draft_id: DraftId,
    /// When it was attached.
    pub created_at: Timestamp,
    /// `image/jpeg` or `image/png`.
    pub media_type: String,
    /// The width in pixels.
    pub width: u32,
    /// The height in pixels.
    pub height: u32,
    /// The size of the stored bytes.
    pub byte_size: u64,
    /// The lower-case hex SHA-256 of the stored bytes.
    pub sha256: String,
    /// What the photo shows; each role is numbered on its own.
    pub role: AttachmentRole,
}

/// The answer of [`crate::Store::remove_attachment`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemovedAttachment {
    /// The attachment that was removed.
    pub removed: StoredAttachment,
    /// Whether the write-ahead log was emptied afterwards, as for [`DeletedDraft`].
    pub log_cleared: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use zayavka_codes::check_stable_codes;

    /// Issue 18: no way into a `DraftId` takes a number that is not positive.
    #[test]
    fn a_draft_id_is_always_positive() {
        assert_eq!(DraftId::new(7).map(DraftId::get), Some(7));
        for id in [0, -1, i64::MIN] {
            assert_eq!(DraftId::new(id), None);
            assert_eq!(DraftId::try_from(id), Err(ParseDraftIdError));
            assert!(serde_json::from_str::<DraftId>(&id.to_string()).is_err());
        }
        assert_eq!(serde_json::to_string(&DraftId::new(7)).unwrap(), "7");
        assert_eq!(serde_json::from_str::<DraftId>("7").unwrap().get(), 7);
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        let read =
            |value: i64| conn.query_row("SELECT ?1", [value], |row| row.get::<_, DraftId>(0));
        assert_eq!(read(3).unwrap().get(), 3);
        assert!(read(0).is_err());
        assert!(read(-5).is_err());
    }

    #[test]
    fn draft_id_round_trips_and_refuses_other_spellings() {
        let id: DraftId = "42".parse().unwrap();
        assert_eq!(id.get(), 42);
        assert_eq!(id.to_string(), "42");
        for text in ["", "0", "-1", "+1", " 1", "1 ", "x", "99999999999999999999"] {
            assert_eq!(text.parse::<DraftId>(), Err(ParseDraftIdError), "{text:?}");
        }
    }

    #[test]
    fn codes_round_trip() {
        check_stable_codes::<DraftOutcome>().unwrap();
        check_stable_codes::<FinalOutcome>().unwrap();
        check_stable_codes::<RowState>().unwrap();
        check_stable_codes::<AuditKind>().unwrap();
        for outcome in FinalOutcome::ALL {
            assert_eq!(
                DraftOutcome::from(*outcome).code(),
                outcome.code(),
                "{outcome}"
            );
        }
        assert_eq!(DraftOutcome::from_code("done"), None);
    }
}
