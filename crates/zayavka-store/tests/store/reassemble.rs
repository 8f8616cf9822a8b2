//! A finished draft assembled again with a confirmed subject.

use zayavka_store::{AuditKind, DraftOutcome, StoreError};

use crate::{Scratch, attempt, full_input, input, ready, record};

#[test]
fn reassembly_replaces_input_and_result_and_keeps_the_run() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let id = store
        .create_draft(&input("Не горит свет в подъезде"))
        .unwrap();
    let mut first = ready("Свет", "Не горит свет.");
    first.subject_module = None;
    first.legal_omission = Some("not_confirmed".to_owned());
    store
        .finish_draft(id, &first, Some(&record("m")), &[attempt(1, 50, None)])
        .unwrap();

    let confirmed = full_input("Не горит свет в подъезде", "Подъезд 1", "Темно", "Заменить");
    let again = ready("Свет", "Не горит свет. Правовой абзац.");
    store.reassemble_draft(id, &confirmed, &again).unwrap();

    let draft = store.get_draft(id).unwrap().unwrap();
    assert_eq!(draft.summary.outcome, DraftOutcome::Ready);
    assert_eq!(draft.summary.raw_input_json, confirmed.raw_input_json);
    assert_eq!(
        draft.summary.subject_module.as_deref(),
        Some("common_area_premises_lighting")
    );
    assert_eq!(
        draft.body.as_deref(),
        Some("Не горит свет. Правовой абзац.")
    );
    // The model run stays exactly as it was: no new record, no new attempt.
    assert_eq!(draft.records.len(), 1);
    assert_eq!(draft.attempts.len(), 1);
    // Search sees the new text.
    assert_eq!(store.search_drafts("правовой", 10).unwrap()[0].id, id);
    let finished: Vec<_> = store
        .audit_events(Some(id))
        .unwrap()
        .into_iter()
        .filter(|event| event.kind == AuditKind::DraftFinished)
        .collect();
    assert_eq!(
        finished.len(),
        2,
        "every result the draft had is in the log"
    );
    assert_ne!(finished[0].sha256, finished[1].sha256);
}

#[test]
fn a_pending_draft_cannot_be_reassembled() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let id = store.create_draft(&input("Не горит свет")).unwrap();
    let error = store
        .reassemble_draft(id, &input("Не горит свет"), &ready("Свет", "Тело"))
        .unwrap_err();
    assert!(
        matches!(error, StoreError::DraftNotPending { .. }),
        "{error:?}"
    );
    assert_eq!(
        store.get_draft(id).unwrap().unwrap().summary.outcome,
        DraftOutcome::Pending
    );
}
