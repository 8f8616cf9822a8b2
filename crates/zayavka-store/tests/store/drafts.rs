//! Drafts from creation to their end, edits, lists and the audit log.

use zayavka_store::{
    AuditKind, DraftFilter, DraftId, DraftOutcome, FinalOutcome, FinishedDraft, NewDraft,
    NewVersion, StoreError,
};

use crate::{Scratch, attempt, full_input, input, ready, ready_draft, record};

fn failed() -> FinishedDraft {
    FinishedDraft {
        outcome: FinalOutcome::Failed,
        reason: Some("timeout".to_owned()),
        retryable: Some(true),
        title: None,
        body: None,
        request_json: None,
        warnings_json: "[]".to_owned(),
        subject_module: None,
        legal_omission: None,
        model_used: true,
    }
}

#[test]
fn a_draft_is_pending_until_finished_and_keeps_its_run() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let new = full_input(
        "Не горит свет",
        "Подъезд 1",
        "Темно вечером",
        "Заменить лампы",
    );
    let id = store.create_draft(&new).unwrap();

    let pending = store.get_draft(id).unwrap().unwrap();
    assert_eq!(pending.summary.outcome, DraftOutcome::Pending);
    assert_eq!(pending.summary.raw_input_json, new.raw_input_json);
    assert_eq!(store.pending_drafts().unwrap()[0].id, id);

    let attempts = [attempt(1, 50, None), attempt(2, 70, Some(0.5))];
    store
        .finish_draft(
            id,
            &ready("Свет", "Не горит свет."),
            Some(&record("m")),
            &attempts,
        )
        .unwrap();
    let draft = store.get_draft(id).unwrap().unwrap();
    assert_eq!(draft.summary.outcome, DraftOutcome::Ready);
    assert_eq!(draft.summary.title.as_deref(), Some("Свет"));
    assert_eq!(draft.body.as_deref(), Some("Не горит свет."));
    assert!(draft.model_used);
    assert_eq!(draft.records.len(), 1);
    assert_eq!(draft.records[0].record, record("m"));
    let stored: Vec<_> = draft.attempts.iter().map(|a| a.attempt.clone()).collect();
    assert_eq!(stored, attempts);
    assert!(
        draft
            .attempts
            .iter()
            .all(|a| a.record_id == Some(draft.records[0].id))
    );
    assert!(store.pending_drafts().unwrap().is_empty());
}

#[test]
fn a_finished_draft_cannot_finish_again_without_a_retry() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let id = store.create_draft(&input("Протекает потолок")).unwrap();
    store
        .finish_draft(id, &failed(), Some(&record("a")), &[attempt(1, 0, None)])
        .unwrap();
    let error = store
        .finish_draft(id, &ready("Т", "Б."), None, &[])
        .unwrap_err();
    assert!(
        matches!(
            error,
            StoreError::DraftNotPending {
                outcome: "failed",
                ..
            }
        ),
        "{error:?}"
    );

    store.begin_retry(id).unwrap();
    assert_eq!(store.pending_drafts().unwrap()[0].id, id);
    store
        .finish_draft(id, &ready("Потолок", "Течёт."), Some(&record("b")), &[])
        .unwrap();
    let draft = store.get_draft(id).unwrap().unwrap();
    assert_eq!(draft.summary.outcome, DraftOutcome::Ready);
    // Both runs stay on record.
    assert_eq!(draft.records.len(), 2);
    assert_eq!(draft.attempts.len(), 1);
    let kinds: Vec<_> = store
        .audit_events(Some(id))
        .unwrap()
        .iter()
        .map(|e| (e.kind, e.detail.clone()))
        .collect();
    assert_eq!(
        kinds,
        [
            (AuditKind::DraftCreated, None),
            (AuditKind::DraftFinished, Some("failed".to_owned())),
            (AuditKind::DraftRetried, Some("failed".to_owned())),
            (AuditKind::DraftFinished, Some("ready".to_owned())),
        ]
    );
}

#[test]
fn unknown_drafts_are_typed_errors() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let missing = DraftId::new(99).unwrap();
    assert!(store.get_draft(missing).unwrap().is_none());
    for error in [
        store
            .finish_draft(missing, &failed(), None, &[])
            .unwrap_err(),
        store.begin_retry(missing).unwrap_err(),
        store.delete_draft(missing).unwrap_err(),
        store
            .add_version(
                missing,
                &NewVersion {
                    author: "resident".into(),
                    title: "т".into(),
                    body: "б".into(),
                },
            )
            .unwrap_err(),
    ] {
        assert!(
            matches!(error, StoreError::DraftNotFound(id) if id == missing),
            "{error:?}"
        );
    }
}

#[test]
fn documents_must_be_json_and_authors_codes() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let error = store
        .create_draft(&NewDraft {
            raw_input_json: "{not json".into(),
            checked_input_json: None,
        })
        .unwrap_err();
    assert!(
        matches!(
            error,
            StoreError::InvalidJson {
                field: "raw_input_json"
            }
        ),
        "{error:?}"
    );
    let id = store.create_draft(&input("Сломан замок")).unwrap();
    let mut bad = ready("Т", "Б.");
    bad.warnings_json = "[".into();
    let error = store.finish_draft(id, &bad, None, &[]).unwrap_err();
    assert!(
        matches!(
            error,
            StoreError::InvalidJson {
                field: "warnings_json"
            }
        ),
        "{error:?}"
    );
    let error = store
        .add_version(
            id,
            &NewVersion {
                author: "Жилец".into(),
                title: "т".into(),
                body: "б".into(),
            },
        )
        .unwrap_err();
    assert_eq!(error.code(), "invalid_code");
    // Nothing was half-stored: the draft is still pending with no versions.
    let draft = store.get_draft(id).unwrap().unwrap();
    assert_eq!(draft.summary.outcome, DraftOutcome::Pending);
    assert!(draft.versions.is_empty());
}

#[test]
fn versions_are_numbered_and_the_assembled_text_stays() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let id = ready_draft(&store, "Грязно в подъезде", "Уборка", "Не убирают.");
    for n in 1..=2 {
        let version = store
            .add_version(
                id,
                &NewVersion {
                    author: "resident".into(),
                    title: format!("Уборка {n}"),
                    body: format!("Правка {n}."),
                },
            )
            .unwrap();
        assert_eq!(version, n);
    }
    let draft = store.get_draft(id).unwrap().unwrap();
    assert_eq!(draft.summary.title.as_deref(), Some("Уборка"));
    assert_eq!(draft.body.as_deref(), Some("Не убирают."));
    assert_eq!(draft.summary.latest_version, Some(2));
    assert_eq!(
        draft
            .versions
            .iter()
            .map(|v| v.body.as_str())
            .collect::<Vec<_>>(),
        ["Правка 1.", "Правка 2."]
    );
}

#[test]
fn lists_are_newest_first_and_filtered() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let first = ready_draft(&store, "Первый черновик", "Один", "Один.");
    // The pauses keep the cutoff clear of both drafts at the stored millisecond precision.
    std::thread::sleep(std::time::Duration::from_millis(5));
    let cutoff = jiff::Timestamp::now();
    std::thread::sleep(std::time::Duration::from_millis(5));
    let second = store.create_draft(&input("Второй черновик")).unwrap();
    let mut no_subject = ready("Три", "Три.");
    no_subject.subject_module = None;
    let third = store.create_draft(&input("Третий черновик")).unwrap();
    store.finish_draft(third, &no_subject, None, &[]).unwrap();

    let ids = |filter: DraftFilter| -> Vec<DraftId> {
        store
            .list_drafts(&filter)
            .unwrap()
            .into_iter()
            .map(|d| d.id)
            .collect()
    };
    assert_eq!(ids(DraftFilter::default()), [third, second, first]);
    assert_eq!(
        ids(DraftFilter {
            limit: Some(2),
            ..Default::default()
        }),
        [third, second]
    );
    assert_eq!(
        ids(DraftFilter {
            outcome: Some(DraftOutcome::Ready),
            ..Default::default()
        }),
        [third, first]
    );
    assert_eq!(
        ids(DraftFilter {
            subject: Some("common_area_premises_lighting".into()),
            ..Default::default()
        }),
        [first]
    );
    assert_eq!(
        ids(DraftFilter {
            since: Some(cutoff),
            ..Default::default()
        }),
        [third, second]
    );
    assert_eq!(
        ids(DraftFilter {
            batch_id: Some("0".repeat(64)),
            ..Default::default()
        }),
        []
    );
    // The subject the resident confirmed counts too, even before the draft ends.
    let confirmed = store
        .create_draft(&full_input("Свет", "Этаж", "Темно", "Починить"))
        .unwrap();
    assert_eq!(
        ids(DraftFilter {
            subject: Some("common_area_premises_lighting".into()),
            ..Default::default()
        }),
        [confirmed, first]
    );
}

#[test]
fn the_audit_log_refuses_updates_and_deletes() {
    let scratch = Scratch::new();
    let store = scratch.open();
    ready_draft(&store, "Сломан лифт", "Лифт", "Лифт.");
    let conn = rusqlite::Connection::open(scratch.db()).unwrap();
    for sql in [
        "UPDATE audit_events SET kind = 'draft_deleted'",
        "UPDATE audit_events SET at = 'x' WHERE seq = 1",
        "DELETE FROM audit_events",
        "DELETE FROM audit_events WHERE seq = 1",
    ] {
        let error = conn.execute(sql, []).unwrap_err();
        assert!(error.to_string().contains("append-only"), "{sql}: {error}");
    }
    assert_eq!(store.audit_events(None).unwrap().len(), 2);
}

#[test]
fn the_audit_log_holds_no_resident_text() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let id = ready_draft(
        &store,
        "Секретное слово ромашка",
        "Ромашка",
        "Ромашка цветёт.",
    );
    store
        .add_version(
            id,
            &NewVersion {
                author: "resident".into(),
                title: "Ромашка".into(),
                body: "Ромашка.".into(),
            },
        )
        .unwrap();
    let conn = rusqlite::Connection::open(scratch.db()).unwrap();
    let mut statement = conn
        .prepare(
            "SELECT kind, coalesce(draft_id, ''), coalesce(batch_id, ''),
                    coalesce(batch_row, ''), coalesce(sha256, ''), coalesce(detail, '')
             FROM audit_events",
        )
        .unwrap();
    let rows: Vec<String> = statement
        .query_map([], |row| {
            Ok((0..6)
                .map(|i| {
                    row.get::<_, rusqlite::types::Value>(i)
                        .map(|v| format!("{v:?}"))
                })
                .collect::<Result<Vec<_>, _>>()?
                .join("|"))
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(rows.len(), 3);
    for row in rows {
        assert!(!row.to_lowercase().contains("ромашк"), "{row}");
        assert!(row.is_ascii(), "{row}");
    }
}
