//! The adapter to OpenAI-compatible model services, and the only crate of Zayavka that
//! speaks HTTP.
//!
//! It makes exactly one logical call per [`Client::complete`]: `POST
//! {base_url}/chat/completions` with the [`ChatRequest`] as the body, or in the endpoint's
//! other [`Protocol`] — the Responses API (`POST {base_url}/responses`) or GigaChat's variant
//! of chat completions — carried out under a
//! [`Budget`] — connect and per-attempt timeouts, an overall deadline, bounded attempts with
//! exponential backoff and jitter, `Retry-After` honoured up to a cap, a response size cap —
//! and cancellable at any moment through a `CancellationToken`. The [`CallReport`] it returns
//! lists every [`Attempt`] for the audit trail alongside the [`Completion`] or the
//! [`LlmError`]. [`Client::complete_from`] numbers the attempts from a given number, so that
//! a caller's re-asks keep attempt numbers unique across calls.
//!
//! Everything that is stored has a stable snake_case code with `as_str`, `Display`,
//! `FromStr` and serde agreeing: [`ErrorKind`], [`RetryReason`] (`http_503` for a status
//! without a code of its own), [`ResponseFormatKind`] and [`ModeSupport`]. A failed attempt
//! keeps the provider's body in [`Attempt::error_body`], capped at
//! [`ERROR_BODY_RECORD_BYTES`].
//!
//! A server that does not take the requested response format (the `llama-cpp-python`
//! server answers `500` to `json_schema`) is [`LlmError::SchemaModeUnsupported`]: not
//! retried, not reported as down, and naming the other mode. For `zayavka doctor`,
//! [`Client::probe`] checks the model list (`404` and `400` are errors) and
//! [`Client::probe_schema_modes`] tries each mode and recommends one
//! ([`SchemaModeReport`]).
//!
//! An [`Endpoint`] names its [`Protocol`] and its [`Authentication`]: a bearer key, Yandex AI
//! Studio's `Api-Key` with its `x-folder-id` header ([`Endpoint::yandex_ai_studio`]), or
//! GigaChat's authorization key exchanged for an access token that the client keeps in memory,
//! shares between its clones and renews a minute before it expires or once after a `401`
//! ([`Endpoint::gigachat`]); an attempt that had to exchange records it as a
//! [`TokenExchange`]. Whatever the protocol, callers read one [`Completion`]: a Responses
//! answer cut at `max_output_tokens` and GigaChat's `blacklist` end with the finish reasons
//! `length` and `content_filter` that chat completions use, and a forced function call's
//! arguments are the content.
//!
//! Provider wire types stay inside this crate: callers see only the neutral types exported
//! here, and this crate knows nothing of Zayavka's schema or prompts, so it depends on no
//! other Zayavka crate.
//!
//! The API key, and GigaChat's access token, never leave in any form: [`ApiKey`] prints as `[redacted]`, every error
//! message passes through [`redact`] before it is returned, and every provider body handed
//! out — a success's [`Completion::raw_body`] and its text fields included, since a hostile
//! provider may echo the key in a `200` — passes through [`redact_body`], which keeps a JSON
//! body JSON so that it can still be replayed.

mod attempt;
mod certs;
mod client;
mod config;
mod error;
mod gigachat;
mod http;
mod mode;
mod probe;
mod request;
mod response;
mod retry;
mod secret;

pub use attempt::{Attempt, CallEvent, CallReport, ERROR_BODY_RECORD_BYTES};
pub use certs::RUSSIAN_TRUSTED_ROOT_CA_PEM;
pub use client::Client;
pub use config::{Authentication, Budget, Endpoint, Protocol};
pub use error::{ErrorKind, LlmError};
pub use gigachat::{IssuedToken, TokenExchange, parse_token_answer};
pub use mode::ResponseFormatKind;
pub use probe::{ModeSupport, SchemaModeProbe, SchemaModeReport};
pub use request::{ChatRequest, Message, ResponseFormat, Role};
pub use response::{Completion, Usage, parse_chat_completion, parse_completion, parse_response};
pub use retry::{RetryReason, UnknownRetryReason};
pub use secret::{ApiKey, redact, redact_body};
pub use tokio_util::sync::CancellationToken;
