//! The part of Zayavka that sequences the steps of a draft and owns what is specific to one
//! installation: the data and configuration folders, the provider profiles, the API key in the
//! operating system's keyring, the resident's profile and the drafts database.
//!
//! A front end opens one [`Engine`] for its run and calls every operation through it: a draft,
//! the stored drafts and their photos and documents, batches, settings and keys, the profile,
//! the doctor's checks, statistics and evaluation. The database handle never leaves the engine.
//! The engine is the only crate that reads Zayavka's environment variables; the command-line
//! tool and the desktop shell hand it parsed arguments and word what it returns.
//!
//! The modules are private; what a front end may use is re-exported here, grouped by what it is
//! for, together with the types of the crates below that a front end names, so that a front end
//! depends on this crate alone (ADR 31).

mod assemble;
mod attachments;
mod batch;
mod case;
mod config;
mod database;
mod doctor;
mod document;
mod draft;
mod drafts;
mod engine;
mod error;
mod eval;
mod explain;
mod filing;
mod form;
mod ics;
mod notes;
mod paths;
mod profile;
mod read;
mod secrets;
mod settings;
mod stats;

// The handle, and what every error it returns says about itself.
pub use engine::{Engine, Environment, Notice};
pub use error::{EngineError, ErrorKind};

// Folders, files the resident names, and the keyring.
pub use paths::{Paths, PathsError, PathsOrigin, create_output_dir, io_error_ru, replace_file};
pub use read::{FileRole, ReadError, read_text_file};
pub use secrets::{
    ApiKey, ApiKeySource, ENV_API_KEY, KeyStatus, KeyringStore, MemoryStore, SecretError,
    SecretStore, StoredKeyState, api_key_from_env, optional_key_ru,
};

// Settings: provider profiles, their values and how `config show` and the settings screen
// present them.
pub use config::{
    BaseUrl, Config, ConfigError, FolderId, GigaChatScope, ProfileField as ProviderField,
    ProfileName, ProviderKind, ProviderOverrides, ProviderSettings, SchemaMode, ServiceAccess,
    SettingKey, SettingSource, YandexAuth, parse_attempts, parse_model, parse_timeout_secs,
    resolve_provider, set_value as set_config_value,
};
pub use settings::{
    KeyStatusReport, SETUP_SKIPPED_MARKER, ScreenSetting, SettingError, SettingsOverview,
    SetupError, money_text, pricing_text_ru,
};

// A draft: the command, its events and result, the context record and its offline replay.
pub use assemble::assemble_from_texts;
pub use draft::{
    ContextRecord, DraftCommand, DraftCommandResult, DraftEvent, EnvironmentError,
    EnvironmentOverrides, InputSource, KeptInput, RECORD_FORMAT_VERSION, Replay, ReplayError,
    replay as replay_record,
};
pub use form::FormError;
pub use notes::{notes_today, resident_notes_on, stored_notes};
pub use zayavka_core::{NoteKind, ResidentNote};

// Stored drafts, read from a `StoredDraft` the handle gives.
pub use drafts::{
    DraftListItem, DraftView, DraftsError, Recovered, ReplayChange, Restored, StoredReplay,
    filed_text, may_retry, stored_input, stored_outcome, stored_record, stored_request,
    view as draft_view,
};
pub use explain::{Explanation, explanation};

// After the request is filed: the case, its deadline and where it stands (issue 30).
pub use case::{
    ADDRESSEE_MAX, BatchFiling, BatchFollowUps, BroughtInRows, CaseCounts, CaseError, CaseState,
    CaseView, DEADLINE_REVIEW_NOTICE, DUE_SOON_DAYS, DeadlineState, ENV_TODAY, FilingInput,
    NUMBER_MAX, RecordedRow, RefusedRow, bare_number, days_word, method_ru, received_on, result_ru,
    short_date, term_of, today,
};
pub use ics::deadline_event;
pub use zayavka_core::{AnswerTerm, CalendarYear, Deadline, FollowUpKind, NoDeadline, TermId};
pub use zayavka_store::{
    Answer, AnswerResult, AttachmentRole, Case, Filing, FilingMethod, FollowKind, FollowLink,
};

// Documents, photos and the resident's profile for the header.
pub use attachments::{AttachmentError, AttachmentSummary, Detached, metadata_left, photo_name};
pub use document::{
    CO_SIGNERS_COLUMNS, CO_SIGNERS_HEADING, CO_SIGNERS_SENTENCE, CoSigners, DocumentError,
    DocumentFormat, FiledDocument, HeaderLine, date_ru,
};
pub use filing::{FilingError, save_document};
pub use profile::{Profile, ProfileError, ProfileField, field_named};

// Batches: the file, the plan, the run with its events, the stored batch and its exports.
pub use batch::run::{
    BatchError, BatchListItem, BatchProgress, BatchSettings, BatchSummary, ExportError,
    ExportFormat, ExportReport, RATE_LIMIT_PAUSE, StopReason,
};
pub use batch::{
    BatchChoice, BatchFile, BatchFileError, BatchPlan, BatchPreview, BatchRowReport,
    DEFAULT_MAX_ROWS, DocumentsError, DocumentsExport, DocumentsReport, InvalidRow, MAX_ROWS,
    PlanCost, RowPlan, RowStatus, SkipReason, SkippedRow, WriteStatus, WrittenDocument,
};

// The doctor's checks, statistics and the evaluation harness.
pub use doctor::{Check, CheckName, CheckStatus, LEGAL_REVIEW_NOTICE, legal_module_checks};
pub use eval::{
    DEFAULT_MAX_COST, EvalCost, EvalError, EvalExport, EvalPlan, EvalProgress, EvalReport,
    EvalSettings, ExportedCase, HARD_CHECKS, HardVerdict, PreparedEval, SUMMARY_COLUMNS,
    SheetFiles, export_eval_requests, read_marks, summary_cells, write_sheet,
};
pub use stats::{
    Attention, CaseStats, CaseTally, Counts, GroupStats, Period, Stats, StatsError, StatsQuery,
};

// The errors' stable codes: what `--json` and the page's contract name a failure by, each an
// enum written as the same string (zayavka-codes).
pub use attachments::{AttachmentCode, AttachmentErrorCode};
pub use batch::{BatchFileErrorCode, ContentErrorCode};
pub use config::ConfigErrorCode;
pub use paths::PathsErrorCode;
pub use read::ReadErrorCode;
pub use secrets::SecretErrorCode;
pub use zayavka_core::InputErrorCode;
pub use zayavka_store::StoreErrorCode;

// What the front ends name from the crates below the engine, re-exported so that a front end
// depends on this crate alone (an architecture test holds it).
pub use zayavka_core::{
    BODY_LIMIT, Failure, FailureAdvice, FailureReason, InputField, NextStep, Outcome, OutcomeKind,
    REQUEST_HEADING, RawInput, Report, Request, SubjectKind, Verdict, escape_invisible,
    full_sentence, group_digits, input_limits, json_error_ru, legal_catalogue,
};
pub use zayavka_llm::{Budget, CancellationToken, Role};
pub use zayavka_store::{
    BROUGHT_IN_AUTHOR, BackupProblem, Batch, DraftFilter, DraftId, DraftOutcome, SchemaDifference,
    StoreError, StoredDraft,
};
