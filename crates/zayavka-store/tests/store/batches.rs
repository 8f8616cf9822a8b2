//! Batches: stored once per file, one draft per row, resumable.

use std::sync::{Arc, Barrier};

use zayavka_store::{
    AuditKind, DraftFilter, DraftOutcome, FinalOutcome, NewBatch, NewBatchRow, RowState, Store,
    StoreError,
};

use crate::{Scratch, attempt, input, ready};

pub(crate) fn new_batch(rows: u32) -> (NewBatch, Vec<NewBatchRow>) {
    let id = format!("{:064x}", u64::from(rows) * 7919);
    let batch = NewBatch {
        content_sha256: id.clone(),
        source_path: Some("/home/activist/дом.csv".to_owned()),
        id,
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

/// A row of the file `дом.csv` as a later run reads it.
fn file_row(row: u32, words: &str, flat: &str) -> NewBatchRow {
    let stored = input(words);
    NewBatchRow {
        row_number: row,
        raw_input_json: stored.raw_input_json,
        checked_input_json: stored.checked_input_json,
        header_json: Some(format!(r#"{{"Квартира":"{flat}"}}"#)),
    }
}

fn update(rows: u32, hash: char) -> zayavka_store::BatchFileUpdate {
    zayavka_store::BatchFileUpdate {
        file_name: "дом.csv".to_owned(),
        source_path: Some("/home/activist/дом.csv".to_owned()),
        content_sha256: hash.to_string().repeat(64),
        row_count: rows,
    }
}

#[test]
fn issue_14_rows_are_recognised_by_their_input_not_their_place() {
    use zayavka_store::RowMatch;
    let scratch = Scratch::new();
    let store = scratch.open();
    let id = batch(&store, 3); // rows 2, 3, 4: «Строка N: не горит свет», flats 2, 3, 4
    let done = store.claim_row(&id, 2).unwrap();
    store
        .finish_draft_and_row(
            done.draft_id,
            &ready("Т", "Текст."),
            None,
            &[],
            (&id, 2, RowState::Done),
        )
        .unwrap();
    // Rows reordered, row 3's words changed, a row added, and flat 2's number corrected.
    let rows = [
        file_row(2, "Строка 4: не горит свет", "4"),
        file_row(3, "Строка 3: свет горит, но мигает", "3"),
        file_row(4, "Строка 2: не горит свет", "2а"),
        file_row(5, "Новая строка: в лифте темно", "9"),
    ];
    let planned = store.match_batch_rows(&id, &rows).unwrap();
    let matching = store.sync_batch(&id, &update(4, 'd'), &rows).unwrap();
    assert_eq!(planned, matching, "the plan is what the run does");
    assert_eq!(
        matching.rows,
        [
            RowMatch::Same {
                entry: 4,
                state: RowState::Pending,
                header_changed: false
            },
            RowMatch::Changed { replaces: 3 },
            RowMatch::Same {
                entry: 2,
                state: RowState::Done,
                header_changed: true
            },
            RowMatch::New,
        ]
    );
    assert_eq!(matching.removed, [3]);
    let current = store.batch_rows(&id).unwrap();
    let places: Vec<_> = current
        .iter()
        .map(|row| (row.file_row, row.row_number))
        .collect();
    assert_eq!(
        places,
        [(Some(2), 4), (Some(3), 5), (Some(4), 2), (Some(5), 6)]
    );
    assert_eq!(current[2].draft_id, Some(done.draft_id));
    assert_eq!(
        current[2].header_json.as_deref(),
        Some(r#"{"Квартира":"2а"}"#)
    );
    // Only the changed and the new rows, and the one never run, are left to run.
    let to_run: Vec<_> = store
        .rows_to_run(&id)
        .unwrap()
        .iter()
        .map(|row| row.file_row)
        .collect();
    assert_eq!(to_run, [Some(2), Some(3), Some(5)]);
    let status = store.batch_status(&id).unwrap().unwrap();
    assert_eq!(
        (status.rows, status.done_rows, status.removed_rows),
        (4, 1, 1)
    );
    let batch = store.batch(&id).unwrap().unwrap();
    assert_eq!(batch.content_sha256, "d".repeat(64));
    assert_eq!(batch.row_count, 4);
    assert_eq!(batch.number, 1);
    assert!(
        store
            .audit_events(None)
            .unwrap()
            .iter()
            .any(|event| event.kind == AuditKind::BatchFileRead)
    );
}

#[test]
fn issue_14_two_flats_with_the_same_words_keep_their_own_rows() {
    use zayavka_store::RowMatch;
    let scratch = Scratch::new();
    let store = scratch.open();
    let (mut batch, _) = new_batch(2);
    batch.id = "e".repeat(64);
    let rows = [
        file_row(2, "В подъезде не горит свет", "7"),
        file_row(3, "В подъезде не горит свет", "8"),
    ];
    store.ensure_batch(&batch, &rows).unwrap();
    // The same file with the two rows swapped: each flat finds its own row again.
    let swapped = [rows[1].clone(), rows[0].clone()].map(|mut row| {
        row.row_number = 5 - row.row_number;
        row
    });
    let matching = store
        .sync_batch(&batch.id, &update(2, 'f'), &swapped)
        .unwrap();
    assert_eq!(
        matching.rows,
        [
            RowMatch::Same {
                entry: 3,
                state: RowState::Pending,
                header_changed: false
            },
            RowMatch::Same {
                entry: 2,
                state: RowState::Pending,
                header_changed: false
            },
        ]
    );
    assert!(matching.removed.is_empty());
}

#[test]
fn issue_14_line_ends_and_surrounding_spaces_do_not_make_a_new_row() {
    let mut lf = file_row(2, "Свет не горит.\nУже неделю.", "1");
    let crlf = file_row(2, "Свет не горит.\r\nУже неделю.", "1");
    assert_eq!(
        zayavka_store::row_input_key(&lf),
        zayavka_store::row_input_key(&crlf)
    );
    lf.checked_input_json = Some(r#"{"description":"Другой текст"}"#.to_owned());
    assert_ne!(
        zayavka_store::row_input_key(&lf),
        zayavka_store::row_input_key(&crlf)
    );
}

#[test]
fn issue_14_batches_get_short_numbers_and_are_found_by_path_then_content() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let first = batch(&store, 1);
    let second = batch(&store, 2);
    let numbers: Vec<_> = store
        .list_batches()
        .unwrap()
        .iter()
        .map(|b| (b.number, b.id.clone()))
        .collect();
    assert_eq!(numbers, [(2, second.clone()), (1, first.clone())]);
    assert_eq!(store.batch_by_number(1).unwrap().unwrap().id, first);
    assert!(store.batch_by_number(3).unwrap().is_none());
    // Both came from the same path: the one run last is continued.
    let found = store
        .find_batch(Some("/home/activist/дом.csv"), &"0".repeat(64))
        .unwrap()
        .unwrap();
    assert_eq!(found.id, second);
    // From another path, only the very same bytes find a batch.
    let by_content = store.find_batch(Some("/elsewhere.csv"), &first).unwrap();
    assert_eq!(by_content.unwrap().id, first);
    assert!(
        store
            .find_batch(Some("/elsewhere.csv"), &"0".repeat(64))
            .unwrap()
            .is_none()
    );
}
