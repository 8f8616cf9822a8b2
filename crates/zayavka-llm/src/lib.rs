//! The OpenAI-compatible chat-completions adapter, and the only crate of Zayavka that speaks
//! HTTP.
//!
//! It makes exactly one logical call per [`Client::complete`]: `POST
//! {base_url}/chat/completions` with the [`ChatRequest`] as the body, carried out under a
//! [`Budget`] — connect and per-attempt timeouts, an overall deadline, bounded attempts with
//! exponential backoff and jitter, `Retry-After` honoured up to a cap, a response size cap —
//! and cancellable at any moment through a `CancellationToken`. The [`CallReport`] it returns
//! lists every [`Attempt`] for the audit trail alongside the [`Completion`] or the
//! [`LlmError`].
//!
//! Provider wire types stay inside this crate: callers see only the neutral types exported
//! here, and this crate knows nothing of Zayavka's schema or prompts, so it depends on no
//! other Zayavka crate.
//!
//! The API key never leaves in any form: [`ApiKey`] prints as `[redacted]`, and every error
//! message passes through [`redact`] before it is returned.

mod client;
mod config;
mod error;
mod request;
mod response;
mod retry;
mod secret;

pub use client::{Attempt, CallReport, Client};
pub use config::{Budget, Endpoint};
pub use error::{ErrorKind, LlmError};
pub use request::{ChatRequest, Message, ResponseFormat, Role};
pub use response::{Completion, Usage, parse_chat_completion};
pub use secret::{ApiKey, redact};
pub use tokio_util::sync::CancellationToken;
