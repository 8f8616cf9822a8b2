//! The store's integration tests: one binary, one module per concern.

mod attachments;
mod batches;
mod cases;
mod concurrency;
mod deletion;
mod drafts;
mod files;
mod hostile;
mod migrations;
mod reassemble;
mod search;

use std::path::{Path, PathBuf};

use zayavka_store::{
    DraftId, FinalOutcome, FinishedDraft, NewAttempt, NewContextRecord, NewDraft, Store,
};

/// A scratch folder with a database path inside a not-yet-existing subfolder.
pub(crate) struct Scratch {
    pub(crate) dir: tempfile::TempDir,
}

impl Scratch {
    pub(crate) fn new() -> Scratch {
        Scratch {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    /// The database folder (`data/` in the scratch folder).
    pub(crate) fn folder(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    pub(crate) fn db(&self) -> PathBuf {
        self.folder().join("zayavka.sqlite3")
    }

    pub(crate) fn open(&self) -> Store {
        Store::open(&self.db()).unwrap()
    }
}

/// An input document with the given description.
pub(crate) fn input(description: &str) -> NewDraft {
    let raw = serde_json::json!({ "description": description }).to_string();
    NewDraft {
        raw_input_json: raw.clone(),
        checked_input_json: Some(raw),
    }
}

/// A full input document.
pub(crate) fn full_input(
    description: &str,
    location: &str,
    consequences: &str,
    desired: &str,
) -> NewDraft {
    let raw = serde_json::json!({
        "description": description,
        "location": location,
        "consequences": consequences,
        "desired_actions": desired,
        "confirmed_subject": "common_area_premises_lighting",
    })
    .to_string();
    NewDraft {
        raw_input_json: raw.clone(),
        checked_input_json: Some(raw),
    }
}

pub(crate) fn ready(title: &str, body: &str) -> FinishedDraft {
    FinishedDraft {
        outcome: FinalOutcome::Ready,
        reason: None,
        retryable: None,
        title: Some(title.to_owned()),
        body: Some(body.to_owned()),
        request_json: Some(serde_json::json!({ "title": title, "body": body }).to_string()),
        warnings_json: "[]".to_owned(),
        subject_module: Some("common_area_premises_lighting".to_owned()),
        legal_omission: None,
        model_used: true,
    }
}

/// Part of the system prompt every test record has.
pub(crate) const SHARED_PROMPT: &str = "Опиши проблему спокойно и по делу. ";

pub(crate) fn record(marker: &str) -> NewContextRecord {
    NewContextRecord {
        format_version: 1,
        // Two system prompts long enough to be stored as pieces (ADR 9): one the marker's own,
        // one every record shares.
        record_json: serde_json::json!({
            "messages": [
                {"role": "system", "content": format!("{marker} {}", SHARED_PROMPT.repeat(80))},
                {"role": "system", "content": SHARED_PROMPT.repeat(80)},
                {"role": "user", "content": marker},
            ],
            "responses": [marker],
        })
        .to_string(),
        app_version: "0.1.0".to_owned(),
        prompt_version: "v1".to_owned(),
        prompt_sha256: "a".repeat(64),
        schema_id: "https://zayavka.example/schemas/draft-v1.json".to_owned(),
        schema_version: 1,
        schema_sha256: "b".repeat(64),
        transport_schema_sha256: None,
        legal_catalogue_version: "2026.1".to_owned(),
        provider_profile: "default".to_owned(),
        provider_host: "127.0.0.1".to_owned(),
        model: "stand-in".to_owned(),
    }
}

pub(crate) fn attempt(number: u32, tokens: u64, cost: Option<f64>) -> NewAttempt {
    NewAttempt {
        number,
        started_at_unix_ms: 1_780_000_000_000,
        duration_ms: 300,
        http_status: Some(200),
        error_kind: None,
        retry_reason: None,
        prompt_tokens: Some(tokens),
        completion_tokens: Some(tokens / 2),
        total_tokens: Some(tokens + tokens / 2),
        cost,
    }
}

/// Stores a draft and finishes it as ready with one record and one attempt.
pub(crate) fn ready_draft(store: &Store, description: &str, title: &str, body: &str) -> DraftId {
    let id = store.create_draft(&input(description)).unwrap();
    store
        .finish_draft(
            id,
            &ready(title, body),
            Some(&record("r")),
            &[attempt(1, 100, Some(0.01))],
        )
        .unwrap();
    id
}

/// Every file's bytes in a folder (the database, its WAL and shared-memory files).
pub(crate) fn folder_files(folder: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files: Vec<_> = std::fs::read_dir(folder)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_file())
        .map(|path| {
            let bytes = std::fs::read(&path).unwrap();
            (path, bytes)
        })
        .collect();
    files.sort();
    files
}

pub(crate) fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack
        .windows(needle.len())
        .any(|window| window == needle)
}
