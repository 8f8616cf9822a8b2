//! The deterministic core of Zayavka.
//!
//! Everything with authority over a request lives here, as pure functions: the resident input
//! contract, the registry of model output schemas, structural and semantic validation of the
//! model's answer, the legal catalogue and the policy that decides whether a legal paragraph
//! applies, and the assembly of the final text. This crate does no IO, reads no clock and uses no
//! randomness: the same input, model response and catalogue always give the same bytes.

pub mod legal;
pub mod subject;

pub use subject::SubjectKind;
