//! Writes the fixture database of the current schema version that the tests read back.
//!
//! `cargo run -p zayavka-store --example make_fixture -- crates/zayavka-store/tests/fixtures/v1.sqlite3`
//!
//! Run it once per released schema version and keep the file: the tests open every kept
//! fixture with the current code, so each migration is tested from each earlier version.

use std::path::PathBuf;

use zayavka_store::{
    FinalOutcome, FinishedDraft, NewAttempt, NewBatch, NewBatchRow, NewContextRecord, NewDraft,
    NewVersion, RowState, Store,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = PathBuf::from(
        std::env::args()
            .nth(1)
            .ok_or("usage: make_fixture OUTPUT.sqlite3")?,
    );
    if path.exists() {
        return Err(format!("{} exists; remove it first", path.display()).into());
    }
    let store = Store::open(&path)?;

    let input = |description: &str| {
        let raw = serde_json::json!({
            "description": description,
            "location": "Подъезд 2, 5 этаж",
            "confirmed_subject": "common_area_premises_lighting",
        })
        .to_string();
        NewDraft {
            raw_input_json: raw.clone(),
            checked_input_json: Some(raw),
        }
    };
    let record = NewContextRecord {
        format_version: 1,
        record_json: r#"{"messages":[],"responses":[]}"#.to_owned(),
        app_version: "0.1.0".to_owned(),
        prompt_version: "v1".to_owned(),
        prompt_sha256: "1".repeat(64),
        schema_id: "draft-v1".to_owned(),
        schema_version: 1,
        schema_sha256: "2".repeat(64),
        transport_schema_sha256: Some("3".repeat(64)),
        legal_catalogue_version: "2026.1".to_owned(),
        provider_profile: "default".to_owned(),
        provider_host: "127.0.0.1".to_owned(),
        model: "stand-in".to_owned(),
    };
    let attempt = |number: u32, status: u16| NewAttempt {
        number,
        started_at_unix_ms: 1_780_000_000_000 + u64::from(number) * 1_000,
        duration_ms: 250,
        http_status: Some(status),
        error_kind: (status != 200).then(|| "unavailable".to_owned()),
        retry_reason: (status != 200).then(|| "http_503".to_owned()),
        prompt_tokens: Some(400),
        completion_tokens: Some(100),
        total_tokens: Some(500),
        cost: Some(0.002),
    };
    let ready = FinishedDraft {
        outcome: FinalOutcome::Ready,
        reason: None,
        retryable: None,
        title: Some("Не горит свет на 5 этаже".to_owned()),
        body: Some(
            "На лестничной площадке 5 этажа не горит свет.\n\nПрошу:\n1. Заменить лампы."
                .to_owned(),
        ),
        request_json: Some(r#"{"title":"Не горит свет на 5 этаже"}"#.to_owned()),
        warnings_json: r#"["Проверьте номер подъезда."]"#.to_owned(),
        subject_module: Some("common_area_premises_lighting".to_owned()),
        legal_omission: None,
        model_used: true,
    };

    // Draft 1: ready, with a record, two attempts and one version by the resident.
    let first = store.create_draft(&input("На площадке пятого этажа не горит свет уже неделю"))?;
    store.finish_draft(
        first,
        &ready,
        Some(&record),
        &[attempt(1, 503), attempt(2, 200)],
    )?;
    store.add_version(
        first,
        &NewVersion {
            author: "resident".to_owned(),
            title: "Не горит свет".to_owned(),
            body: "Свет не горит неделю.\n\nПрошу:\n1. Заменить лампы.".to_owned(),
        },
    )?;
    // Draft 2: pending, as a crash during the call leaves it.
    store.create_draft(&input("Ёлочная гирлянда в холле искрит"))?;
    // Draft 3: deleted, so only its audit events remain.
    let third = store.create_draft(&input("Этот черновик удалён"))?;
    store.delete_draft(third)?;
    // A batch of two rows: row 2 done, row 3 not yet run.
    let batch_id = "c".repeat(64);
    store.ensure_batch(
        &NewBatch {
            id: batch_id.clone(),
            content_sha256: batch_id.clone(),
            source_path: None,
            file_name: "подъезд.csv".to_owned(),
            row_count: 3,
            settings_json: r#"{"concurrency":4}"#.to_owned(),
        },
        &[2, 3].map(|row| NewBatchRow {
            row_number: row,
            raw_input_json: input(&format!("Строка {row}: в холле темно")).raw_input_json,
            checked_input_json: None,
            header_json: Some(r#"{"Квартира":"12"}"#.to_owned()),
        }),
    )?;
    let claimed = store.claim_row(&batch_id, 2)?;
    store.finish_draft(claimed.draft_id, &ready, None, &[attempt(1, 200)])?;
    store.finish_row(&batch_id, 2, RowState::Done)?;
    store.checkpoint()?;
    drop(store);
    println!("wrote {}", path.display());
    Ok(())
}
