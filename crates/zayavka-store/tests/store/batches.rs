//! Batches: stored once per file, one draft per row, resumable.

use std::sync::{Arc, Barrier};

use zayavka_store::{
    AuditKind, DraftFilter, DraftOutcome, FinalOutcome, NewBatch, NewBatchRow, RowState, Store,
    StoreError,
};

use crate::{Scratch, attempt, input, ready};

pub(crate) fn new_batch(rows: u32) -> (NewBatch, Vec<NewBatchRow>) {
    let batch = NewBatch {
        id: format!("{:064x}", u64::from(rows) * 7919),
        file_name: "дом.csv".to_owned(),
        row_count: rows,
        settings_json: r#"{"concurrency":2}"#.to_owned(),
    };
    let rows = (2..rows + 2)
        .map(|row| NewBatchRow {
            row_number: row,
            raw_input_json: input(&format!("Строка {row}: не горит свет")).raw_input_json,
            checked_input_json: input(&format!("Строка {row}: не горит свет")).checked_input_json,
            header_json: Some(format!(r#"{{"Квартира":"{row}"}}"#)),
        })
        .collect();
    (batch, rows)
}

/// Stores a batch of `rows` rows (numbered from 2) and returns its id.
pub(crate) fn batch(store: &Store, rows: u32) -> String {
    let (batch, rows) = new_batch(rows);
    store.ensure_batch(&batch, &rows).unwrap();
    batch.id
}

#[test]
fn ensure_batch_twice_adds_nothing() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let (batch, rows) = new_batch(3);
    let first = store.ensure_batch(&batch, &rows).unwrap();
    assert!(first.created);
    assert_eq!(first.batch.stored_rows, 3);
    let mut changed = batch.clone();
    changed.settings_json = r#"{"concurrency":16}"#.to_owned();
    let second = store.ensure_batch(&changed, &rows[..1]).unwrap();
    assert!(!second.created);
    assert_eq!(second.batch, first.batch);
    assert_eq!(store.list_batches().unwrap(), [first.batch]);
    assert_eq!(store.batch_rows(&batch.id).unwrap().len(), 3);
    let created = store
        .audit_events(None)
        .unwrap()
        .iter()
        .filter(|e| e.kind == AuditKind::BatchCreated)
        .count();
    assert_eq!(created, 1);
}

#[test]
fn a_batch_id_is_a_sha256() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let (mut batch, rows) = new_batch(1);
    for id in ["", "abc", &"A".repeat(64), &"g".repeat(64), &"a".repeat(65)] {
        batch.id = id.to_owned();
        let error = store.ensure_batch(&batch, &rows).unwrap_err();
        assert!(
            matches!(error, StoreError::InvalidBatchId),
            "{id}: {error:?}"
        );
    }
}

#[test]
fn claim_row_twice_returns_the_same_draft() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let id = batch(&store, 2);
    let first = store.claim_row(&id, 2).unwrap();
    assert!(first.created);
    assert_eq!(first.outcome, DraftOutcome::Pending);
    let again = store.claim_row(&id, 2).unwrap();
    assert_eq!(again.draft_id, first.draft_id);
    assert!(!again.created);

    let draft = store.get_draft(first.draft_id).unwrap().unwrap();
    let link = draft.summary.batch.unwrap();
    assert_eq!((link.batch_id.as_str(), link.row), (id.as_str(), 2));
    assert!(draft.summary.raw_input_json.contains("Строка 2"));
    assert!(draft.summary.checked_input_json.is_some());
    // A batch draft is not one of the resident's pending drafts.
    assert!(store.pending_drafts().unwrap().is_empty());

    // Finished but not yet recorded as done (a crash in between): the claim says so.
    store
        .finish_draft(first.draft_id, &ready("Свет", "Свет."), None, &[])
        .unwrap();
    let after_crash = store.claim_row(&id, 2).unwrap();
    assert_eq!(after_crash.draft_id, first.draft_id);
    assert_eq!(after_crash.outcome, DraftOutcome::Ready);

    let error = store.claim_row(&id, 9).unwrap_err();
    assert!(
        matches!(error, StoreError::BatchRowNotFound { row: 9, .. }),
        "{error:?}"
    );
}

#[test]
fn claims_from_many_connections_make_one_draft_per_row() {
    let scratch = Scratch::new();
    let id = batch(&scratch.open(), 5);
    let barrier = Arc::new(Barrier::new(4));
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let (barrier, db, id) = (barrier.clone(), scratch.db(), id.clone());
            std::thread::spawn(move || {
                let store = Store::open(&db).unwrap();
                barrier.wait();
                (2..7)
                    .map(|row| store.claim_row(&id, row).unwrap().draft_id)
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let claims: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    assert!(
        claims.windows(2).all(|pair| pair[0] == pair[1]),
        "{claims:?}"
    );
    let store = scratch.open();
    let drafts = store
        .list_drafts(&DraftFilter {
            batch_id: Some(id),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(drafts.len(), 5);
}

#[test]
fn rows_to_run_resume_where_the_batch_stopped() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let id = batch(&store, 4);
    let numbers = |store: &Store| -> Vec<u32> {
        store
            .rows_to_run(&id)
            .unwrap()
            .iter()
            .map(|r| r.row_number)
            .collect()
    };
    assert_eq!(numbers(&store), [2, 3, 4, 5]);

    let states = [
        (2, FinalOutcome::Ready, RowState::Done),
        (3, FinalOutcome::Failed, RowState::FailedRetryable),
        (4, FinalOutcome::Rejected, RowState::Failed),
    ];
    for (row, outcome, state) in states {
        let claimed = store.claim_row(&id, row).unwrap();
        let mut finished = ready("Т", "Б.");
        finished.outcome = outcome;
        store
            .finish_draft(
                claimed.draft_id,
                &finished,
                None,
                &[attempt(1, 100, Some(0.25))],
            )
            .unwrap();
        store.finish_row(&id, row, state).unwrap();
    }
    // Row 5 was claimed, then the process died during its call.
    store.claim_row(&id, 5).unwrap();
    assert_eq!(numbers(&store), [3, 5]);
    let rows = store.rows_to_run(&id).unwrap();
    assert_eq!(rows[0].state, RowState::FailedRetryable);
    assert_eq!(rows[1].header_json.as_deref(), Some(r#"{"Квартира":"5"}"#));

    let status = store.batch_status(&id).unwrap().unwrap();
    assert_eq!(status.rows, 4);
    assert_eq!(
        (
            status.done_rows,
            status.failed_retryable_rows,
            status.failed_rows,
            status.pending_rows
        ),
        (1, 1, 1, 1)
    );
    assert_eq!(
        (
            status.ready,
            status.failed,
            status.rejected,
            status.pending,
            status.unclaimed
        ),
        (1, 1, 1, 1, 0)
    );
    assert_eq!(
        (
            status.prompt_tokens,
            status.completion_tokens,
            status.total_tokens
        ),
        (300, 150, 450)
    );
    assert_eq!(status.cost, Some(0.75));

    let finished: Vec<_> = store
        .audit_events(None)
        .unwrap()
        .into_iter()
        .filter(|e| e.kind == AuditKind::BatchRowFinished)
        .map(|e| (e.batch_row, e.detail))
        .collect();
    assert_eq!(
        finished,
        [
            (Some(2), Some("done".to_owned())),
            (Some(3), Some("failed_retryable".to_owned())),
            (Some(4), Some("failed".to_owned())),
        ]
    );
}

#[test]
fn unknown_batches_are_typed() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let unknown = "f".repeat(64);
    assert!(store.batch_status(&unknown).unwrap().is_none());
    assert!(matches!(
        store.rows_to_run(&unknown),
        Err(StoreError::BatchNotFound(_))
    ));
    assert!(matches!(
        store.finish_row(&unknown, 2, RowState::Done),
        Err(StoreError::BatchRowNotFound { .. })
    ));
    assert!(matches!(
        store.claim_row(&unknown, 2),
        Err(StoreError::BatchRowNotFound { .. })
    ));
}

#[test]
fn a_draft_and_its_row_finish_in_one_transaction() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let id = batch(&store, 2);
    let claimed = store.claim_row(&id, 2).unwrap();
    store
        .finish_draft_and_row(
            claimed.draft_id,
            &ready("Свет", "Не горит свет."),
            None,
            &[attempt(1, 10, None)],
            (&id, 2, RowState::Done),
        )
        .unwrap();
    let draft = store.get_draft(claimed.draft_id).unwrap().unwrap();
    assert_eq!(draft.summary.outcome, DraftOutcome::Ready);
    assert_eq!(draft.attempts.len(), 1);
    assert!(
        store
            .rows_to_run(&id)
            .unwrap()
            .iter()
            .all(|r| r.row_number != 2)
    );
    // A draft that already finished is refused, and its row is left as it was.
    let other = store.claim_row(&id, 3).unwrap();
    store
        .finish_draft(other.draft_id, &ready("Т", "Текст."), None, &[])
        .unwrap();
    let error = store
        .finish_draft_and_row(
            other.draft_id,
            &ready("Т", "Текст."),
            None,
            &[],
            (&id, 3, RowState::Done),
        )
        .unwrap_err();
    assert!(
        matches!(error, StoreError::DraftNotPending { .. }),
        "{error:?}"
    );
    assert!(
        store
            .rows_to_run(&id)
            .unwrap()
            .iter()
            .any(|r| r.row_number == 3)
    );
    let finished_rows = store
        .audit_events(None)
        .unwrap()
        .iter()
        .filter(|e| e.kind == AuditKind::BatchRowFinished)
        .count();
    assert_eq!(finished_rows, 1);
}
