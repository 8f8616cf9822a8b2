//! The part of Zayavka that sequences the steps of a draft and owns what is specific to one
//! installation: the data folder ([`paths`]), the provider profiles ([`config`]) and the API key
//! in the operating system's keyring ([`secrets`]).
//!
//! The engine is the only crate that reads Zayavka's environment variables; the CLI and the desktop
//! shell hand it parsed arguments and print what it returns.

pub mod assemble;
pub mod attachments;
pub mod batch;
pub mod config;
pub mod database;
pub mod doctor;
pub mod document;
pub mod draft;
pub mod drafts;
mod engine;
pub mod eval;
pub mod explain;
pub mod filing;
pub mod form;
pub mod paths;
pub mod profile;
pub mod read;
pub mod secrets;
pub mod settings;
pub mod stats;

pub use engine::{Engine, Environment, Notice};

// What the front ends name from the crates below the engine, re-exported so that a front end
// depends on this crate alone (an architecture test holds it).
pub use zayavka_core::{
    BODY_LIMIT, Failure, FailureAdvice, FailureReason, NextStep, Outcome, RawInput, Report,
    Request, SubjectKind, Verdict, escape_invisible, input_limits, json_error_ru, legal_catalogue,
};
pub use zayavka_llm::{Budget, CancellationToken, Role};
pub use zayavka_store::{Batch, DraftFilter, DraftId, DraftOutcome, StoreError, StoredDraft};
