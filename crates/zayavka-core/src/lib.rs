//! The deterministic core of Zayavka.
//!
//! Everything with authority over a request lives here, as pure functions: the resident input
//! contract, the registry of model output schemas, structural and semantic validation of the
//! model's answer, the legal catalogue and the policy that decides whether a legal paragraph
//! applies, and the assembly of the final text. This crate does no IO, reads no clock and uses no
//! randomness: the same input, model response and catalogue always give the same bytes.
//!
//! The data flows one way: [`RawInput`] → [`ResidentInput::parse`] → (the model, elsewhere) →
//! [`ModelReply`] → [`evaluate_reply`] → [`Outcome`].

pub mod assemble;
pub mod decide;
pub mod input;
pub mod legal;
pub mod outcome;
pub mod policy;
pub mod prompt;
pub mod reply;
pub mod schema;
pub mod subject;
pub mod text;

pub use assemble::Request;
pub use decide::{evaluate_reply, offline_request};
pub use input::{RawInput, ResidentInput};
pub use outcome::Outcome;
pub use reply::ModelReply;
pub use subject::SubjectKind;
