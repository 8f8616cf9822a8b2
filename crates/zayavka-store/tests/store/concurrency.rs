//! Several connections at once, as the desktop app and the CLI (or batch workers) open them.

use std::sync::{Arc, Barrier};
use std::thread;

use zayavka_store::{DraftFilter, DraftOutcome, Store};

use crate::{Scratch, attempt, input, ready, record};

const PER_WRITER: usize = 150;

/// Runs `work` on `threads` threads, each with its own `Store` on the same file, all starting
/// together.
fn on_threads<T: Send + 'static>(
    scratch: &Scratch,
    threads: usize,
    work: impl Fn(usize, Store) -> T + Send + Sync + 'static,
) -> Vec<T> {
    let barrier = Arc::new(Barrier::new(threads));
    let work = Arc::new(work);
    let handles: Vec<_> = (0..threads)
        .map(|index| {
            let (barrier, work, db) = (barrier.clone(), work.clone(), scratch.db());
            thread::spawn(move || {
                barrier.wait();
                let store = Store::open(&db).unwrap();
                work(index, store)
            })
        })
        .collect();
    handles.into_iter().map(|h| h.join().unwrap()).collect()
}

#[test]
fn connections_opening_a_new_database_at_once_all_succeed() {
    // Every thread finds an empty file; the migration runs once, the others wait and find it
    // done.
    let scratch = Scratch::new();
    let versions = on_threads(&scratch, 6, |_, store| store.schema_version().unwrap());
    assert!(versions.iter().all(|v| *v == zayavka_store::SCHEMA_VERSION));
}

#[test]
fn two_writers_at_once_both_succeed() {
    let scratch = Scratch::new();
    drop(scratch.open());
    let ids = on_threads(&scratch, 2, |writer, store| {
        (0..PER_WRITER)
            .map(|n| {
                let id = store
                    .create_draft(&input(&format!("Писатель {writer}, черновик {n}")))
                    .unwrap();
                store
                    .finish_draft(
                        id,
                        &ready("Заголовок", "Текст."),
                        Some(&record("x")),
                        &[attempt(1, 10, None)],
                    )
                    .unwrap();
                id
            })
            .collect::<Vec<_>>()
    });
    let mut all: Vec<_> = ids.into_iter().flatten().collect();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 2 * PER_WRITER);
    let store = scratch.open();
    let listed = store.list_drafts(&DraftFilter::default()).unwrap();
    assert_eq!(listed.len(), 2 * PER_WRITER);
    assert!(listed.iter().all(|d| d.outcome == DraftOutcome::Ready));
    // Every write left its audit events: created and finished for each draft.
    assert_eq!(store.audit_events(None).unwrap().len(), 4 * PER_WRITER);
}

#[test]
fn reading_while_another_writes_sees_whole_transactions() {
    let scratch = Scratch::new();
    drop(scratch.open());
    let target = scratch.dir.path().join("backup.sqlite3");
    let results = on_threads(&scratch, 3, move |role, store| {
        if role == 0 {
            for n in 0..PER_WRITER {
                let id = store
                    .create_draft(&input(&format!("Черновик номер {n}")))
                    .unwrap();
                store
                    .finish_draft(id, &ready("Заголовок", "Текст."), None, &[])
                    .unwrap();
            }
            0
        } else if role == 1 {
            // A backup taken in the middle of the writes is a consistent copy.
            store.backup_to(&target).unwrap();
            let copy = Store::open(&target).unwrap();
            let drafts = copy.list_drafts(&DraftFilter::default()).unwrap();
            let consistent = drafts.iter().all(|d| {
                d.outcome == DraftOutcome::Pending || copy.get_draft(d.id).unwrap().is_some()
            });
            assert!(consistent);
            drafts.len()
        } else {
            let mut seen = 0;
            let mut reads = 0;
            while seen < PER_WRITER {
                let drafts = store.list_drafts(&DraftFilter::default()).unwrap();
                assert!(drafts.len() >= seen, "a read went back in time");
                seen = drafts.len();
                // A finished draft is never seen without its title: finishing is one
                // transaction.
                for draft in drafts.iter().filter(|d| d.outcome == DraftOutcome::Ready) {
                    assert!(draft.title.is_some());
                }
                if let Some(newest) = drafts.first() {
                    assert!(store.get_draft(newest.id).unwrap().is_some());
                }
                reads += 1;
            }
            reads
        }
    });
    assert!(results[2] >= 1);
}
