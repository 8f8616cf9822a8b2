//! The workspace's one integration-test binary.
//!
//! - `architecture`: which crate may depend on which, SQL only in the store, and the list of
//!   `ZAYAVKA_*` variables the tests clear, checked against `cargo metadata` and the sources.
//! - `module_circles`: no crate has an import circle between its modules — every `crate::`,
//!   `super::` and `use` path read from the sources and followed through re-exports (issue 18).
//! - `batch`: `zayavka batch` against the stand-in — invalid rows, resume without resending,
//!   retryable failures, the cost cap, status and export, and the SIGKILL crash test.
//! - `cases`: the data-driven assembly cases in `tests/cases/assemble/`, each checked against its
//!   stated expectation and a golden snapshot, twice for determinism, and through the real
//!   `zayavka assemble` binary.
//! - `cli`: the command-line contract (exit codes, output forms, error messages).
//! - `config_init`: issue 15's configuration — `config set` and `show` of the Yandex AI Studio
//!   and GigaChat fields, `config init` without and in a terminal, and a draft through each new
//!   kind against the stand-in playing that service.
//! - `eval`: `zayavka eval` against the stand-in (issue 17) — plan mode sends nothing, the
//!   corpus with its faithful answers passes every hard check and replays byte for byte, each
//!   check fails on an answer built to break it, the cost cap, the review sheet and its marks.
//! - `drafts_list`: `zayavka drafts list` and `search` as a resident reads them (issue 14) —
//!   offline drafts titled with their own first words, a preview under every title, local time.
//! - `draft`: `zayavka draft` against the stand-in provider — the fault matrix, what the provider
//!   received, cancellation, kept input, replay, and the canary key.
//! - `gigachat`: GigaChat through the binary (issue 15) — a 20-row batch with exactly one
//!   token exchange, one row at a time, and the canary: the authorization key, its secret and
//!   the access tokens, echoed back by a misbehaving service, are in no output, log, record,
//!   database, backup or export.
//! - `keyring`: the API key's whole path through the real OS keyring (in the throw-away keyring
//!   session the test command provides).
//! - `profile`: `zayavka profile` — set, show, clear, refused values that change nothing, and
//!   the proof that the profile never reaches the model's context.
//! - `documents`: the PDF read back with poppler — its text, its page count, its first page as a
//!   PNG under the target folder.
//! - `collective`: collective requests (the co-signers table read back from the PDF, its pages
//!   as PNGs) and `batch export` of one document per row with the rows' own header columns — a
//!   clash in the folder, an unwritable folder, and the header columns never sent to the model.
//! - `libreoffice`: the DOCX opened by headless LibreOffice Writer — its text paragraph for
//!   paragraph the text export's, the collective table a real table on a page of its own.
//! - `photos`: photos attached to drafts — no GPS or camera metadata in any stored or exported
//!   copy (exiftool and a Rust check), one PDF page per photo, a sideways photo upright, bad
//!   files refused with nothing changed, nothing left after detaching or deleting, and the
//!   request to the provider unchanged by attaching.
//! - `doctor`: `zayavka doctor` on a fresh install and against reachable, unreachable and
//!   key-refusing providers; GigaChat (its token exchange as a check of its own, a refused key
//!   with where to get a new one) and Yandex AI Studio (one structured call to the folder's
//!   model, a wrong folder and a wrong key).
//! - `optional_key`: a server profile that requires no key gets one exactly when one is stored
//!   or given, and `doctor`, `key status`, `key set` and `config show` say so.
//! - `provider_failures`: a failed draft with GigaChat, Yandex AI Studio or llama.cpp through
//!   the binary (issue 15) — the service's advice, «Ответ сервера: …», the reason in the record,
//!   and the key nowhere.
//! - `stats`: `zayavka stats` over drafts made against the stand-in and without a model
//!   (issue 17) — outcomes, re-asks, retries, faithfulness findings, waiting time, the warning
//!   when most answers are rejected, the `--json` shape, filters, an empty store, a bad date.
//! - `fuzz_seeds`: every fuzz target's checks (`fuzz/checks/`) over its checked-in seeds, in
//!   the ordinary build (ADR 29).
//! - `pipes`: every printing command into a pipe whose reader has gone (`| head`) stops
//!   quietly with 141, with standard error closed too, and no source prints with a panicking
//!   macro.

mod architecture;
mod batch;
mod cases;
mod cli;
mod cli_ru;
mod collective;
mod concurrency;
mod config_init;
mod doctor;
mod documents;
mod draft;
mod drafts_list;
mod eval;
mod files;
mod filing;
mod fuzz_seeds;
mod gigachat;
mod keyring;
mod libreoffice;
mod module_circles;
mod optional_key;
mod photos;
mod pipes;
mod profile;
mod provider_failures;
mod restore;
mod stats;
mod support;
