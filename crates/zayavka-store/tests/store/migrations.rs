//! Opening: migrations from nothing, kept fixtures of earlier versions, and refusing what this
//! version must not touch.

use std::path::Path;

use zayavka_store::{DraftFilter, DraftId, DraftOutcome, SCHEMA_VERSION, Store, StoreError};

use crate::{Scratch, folder_files, input};

#[test]
fn opens_in_an_empty_folder_and_migrates_to_the_current_version() {
    let scratch = Scratch::new();
    let nested = scratch.folder().join("a").join("b.sqlite3");
    let store = Store::open(&nested).unwrap();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    let id = store
        .create_draft(&input("Не закрывается дверь подъезда"))
        .unwrap();
    drop(store);
    // Opening again migrates nothing and keeps the draft.
    let store = Store::open(&nested).unwrap();
    assert!(store.get_draft(id).unwrap().is_some());
    let journal_mode: String = rusqlite::Connection::open(&nested)
        .unwrap()
        .query_row("PRAGMA journal_mode", [], |row| row.get(0))
        .unwrap();
    assert_eq!(journal_mode, "wal");
}

#[cfg(unix)]
#[test]
fn new_folders_and_the_file_are_private() {
    use std::os::unix::fs::PermissionsExt;
    let scratch = Scratch::new();
    let _store = scratch.open();
    let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&scratch.folder()), 0o700);
    assert_eq!(mode(&scratch.db()), 0o600);
}

/// Copies a kept fixture into a scratch folder so the kept file is never modified.
fn open_fixture(name: &str) -> (Scratch, Store) {
    let scratch = Scratch::new();
    std::fs::create_dir_all(scratch.folder()).unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    std::fs::copy(fixture, scratch.db()).unwrap();
    let store = scratch.open();
    (scratch, store)
}

#[test]
fn the_version_1_fixture_opens_and_reads() {
    let (_scratch, store) = open_fixture("v1.sqlite3");
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);

    let first = store.get_draft(DraftId::new(1).unwrap()).unwrap().unwrap();
    assert_eq!(first.summary.outcome, DraftOutcome::Ready);
    assert_eq!(
        first.summary.title.as_deref(),
        Some("Не горит свет на 5 этаже")
    );
    assert!(first.summary.raw_input_json.contains("неделю"));
    assert_eq!(first.versions.len(), 1);
    assert_eq!(first.versions[0].author, "resident");
    assert_eq!(first.records.len(), 1);
    assert_eq!(
        first.records[0].record.transport_schema_sha256,
        Some("3".repeat(64))
    );
    assert_eq!(first.attempts.len(), 2);
    assert_eq!(first.attempts[0].attempt.http_status, Some(503));
    assert_eq!(first.attempts[1].record_id, Some(first.records[0].id));

    let pending = store.pending_drafts().unwrap();
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].id, DraftId::new(2).unwrap());
    assert!(store.get_draft(DraftId::new(3).unwrap()).unwrap().is_none());

    // The index of the old version answers the new code's queries.
    let found = store.search_drafts("елочн", 10).unwrap();
    assert_eq!(found.iter().map(|d| d.id.get()).collect::<Vec<_>>(), [2]);

    let batches = store.list_batches().unwrap();
    assert_eq!(batches.len(), 1);
    let status = store.batch_status(&batches[0].id).unwrap().unwrap();
    assert_eq!(
        (
            status.rows,
            status.done_rows,
            status.ready,
            status.unclaimed
        ),
        (2, 1, 1, 1)
    );
    assert_eq!(store.rows_to_run(&batches[0].id).unwrap()[0].row_number, 3);
    // Version 4 numbered the batch, kept its file's hash, and put its rows in their places.
    assert_eq!(batches[0].number, 1);
    assert_eq!(batches[0].content_sha256, batches[0].id);
    let places: Vec<_> = store
        .batch_rows(&batches[0].id)
        .unwrap()
        .iter()
        .map(|row| (row.row_number, row.file_row))
        .collect();
    assert_eq!(places, [(2, Some(2)), (3, Some(3))]);

    let kinds: Vec<_> = store
        .audit_events(Some(DraftId::new(3).unwrap()))
        .unwrap()
        .into_iter()
        .map(|event| event.kind.code())
        .collect();
    assert_eq!(kinds, ["draft_created", "draft_deleted"]);

    // And it keeps working: a new draft gets a new id, never the deleted one's.
    let new = store
        .create_draft(&input("Новая заявка после обновления"))
        .unwrap();
    assert!(new.get() > 4, "{new}");
    assert_eq!(store.list_drafts(&DraftFilter::default()).unwrap().len(), 4);
}

#[test]
fn a_database_from_a_newer_version_is_refused_and_left_unchanged() {
    let scratch = Scratch::new();
    drop(scratch.open());
    let newer = SCHEMA_VERSION + 1;
    {
        let conn = rusqlite::Connection::open(scratch.db()).unwrap();
        conn.pragma_update(None, "user_version", newer).unwrap();
        // A rollback journal, so that switching the file to WAL before checking the version
        // would show in its header bytes.
        conn.pragma_update_and_check(None, "journal_mode", "DELETE", |_| Ok(()))
            .unwrap();
    }
    let before = folder_files(&scratch.folder());
    let error = Store::open(&scratch.db()).unwrap_err();
    assert!(
        matches!(error, StoreError::NewerSchema { found, supported }
            if found == newer && supported == SCHEMA_VERSION),
        "{error:?}"
    );
    assert!(
        error.message_ru().contains("Обновите программу"),
        "{}",
        error.message_ru()
    );
    assert_eq!(folder_files(&scratch.folder()), before);
}

#[test]
fn a_database_of_another_program_is_refused_and_left_unchanged() {
    let scratch = Scratch::new();
    std::fs::create_dir_all(scratch.folder()).unwrap();
    {
        let conn = rusqlite::Connection::open(scratch.db()).unwrap();
        conn.execute_batch("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('x');")
            .unwrap();
    }
    let before = folder_files(&scratch.folder());
    let error = Store::open(&scratch.db()).unwrap_err();
    assert_eq!(error.code(), "not_our_database", "{error:?}");
    assert_eq!(folder_files(&scratch.folder()), before);
}

#[test]
fn a_text_file_is_refused_and_left_unchanged() {
    let scratch = Scratch::new();
    std::fs::create_dir_all(scratch.folder()).unwrap();
    std::fs::write(
        scratch.db(),
        "это не база данных, а просто текст. ".repeat(200),
    )
    .unwrap();
    let before = folder_files(&scratch.folder());
    let error = Store::open(&scratch.db()).unwrap_err();
    assert_eq!(error.code(), "not_our_database", "{error:?}");
    assert_eq!(folder_files(&scratch.folder()), before);
}
