//! A scripted stand-in for an OpenAI-compatible provider: chat completions, the Responses API,
//! and the services Yandex AI Studio and GigaChat.
//!
//! Adapter tests need a real server on `127.0.0.1:0` rather than a mock object, and they need
//! it to misbehave the way real providers and networks do: answer late, answer `429` with
//! `Retry-After`, drip a body, promise more bytes than it sends, reset, or say nothing at all.
//! A general-purpose HTTP framework would refuse to do most of that, so the server here is a
//! small hand-written HTTP/1.1 loop on Tokio's `TcpListener`.
//!
//! It can also play a hostile provider that echoes the caller's key back
//! ([`Reply::EchoCredentials`]) and servers that refuse a response format
//! ([`Reply::llama_cpp_python_format_refusal`], [`Reply::format_refusal`]).
//!
//! A [`Script`] lists the [`Reply`]s to serve, one per request; [`StandIn::start`] runs it on
//! its own thread and records every [`RecordedRequest`] for later assertions.
//!
//! ```no_run
//! use zayavka_standin::{Reply, Script, StandIn};
//!
//! let stand_in = StandIn::start(
//!     Script::new()
//!         .then(Reply::status(503, "busy"))
//!         .then(Reply::completion("{\"outcome\":\"draft\"}")),
//! );
//! let base_url = stand_in.base_url(); // "http://127.0.0.1:PORT/v1"
//! # let _ = base_url;
//! ```
//!
//! [`StandIn::start_as`] plays Yandex AI Studio or GigaChat ([`Service`]): it checks the
//! `Api-Key`, the folder and the model URI, or runs GigaChat's token exchange with expiring
//! tokens and counts the exchanges, and answers what passes from the script, for which
//! [`Reply::responses`], [`Reply::function_call`] and friends make the services' answers.
//!
//! [`StandIn::start_tls`] serves HTTPS with a certificate from a [`TestCa`] made for the test,
//! to show which clients trust that CA.
//!
//! [`Script::answer_corpus`] serves the evaluation's recorded answers (issue 36), each to the
//! request that carries its case's user message.
//!
//! The `zayavka-standin` binary serves one canned completion forever, for benchmarks and
//! manual runs, or with `--answers DIR` a folder of recorded answers.

mod answers;
mod fixtures;
mod reply;
mod request;
mod script;
mod server;
mod service;
mod tls;

pub use answers::{RecordedAnswer, RecordedAnswers, Review, read_answer_corpus};
pub use fixtures::{LIGHTING_DESCRIPTION, lighting_draft};
pub use reply::{CANNED_USAGE, ECHO_AUTHORIZATION, ECHO_KEY, Reply, chat_completion_body};
pub use request::RecordedRequest;
pub use script::Script;
pub use server::StandIn;
pub use service::{GIGACHAT_OAUTH_PATH, Service};
pub use tls::TestCa;
