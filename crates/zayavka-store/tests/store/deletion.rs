//! Deleting is real: no byte of a deleted draft's text stays in any file of the database.

use zayavka_store::{AuditKind, NewVersion, Store};

use crate::{Scratch, attempt, contains, folder_files, full_input, ready, record};

/// Stores a draft whose every text field (input, request, version, record) carries `marker`.
fn marked_draft(store: &Store, marker: &str) -> zayavka_store::DraftId {
    let id = store
        .create_draft(&full_input(
            &format!("Описание {marker} в подъезде"),
            &format!("Место {marker}"),
            &format!("Последствия {marker}"),
            &format!("Сделать {marker}"),
        ))
        .unwrap();
    store
        .finish_draft(
            id,
            &ready(&format!("Заголовок {marker}"), &format!("Текст {marker}.")),
            Some(&record(marker)),
            &[attempt(1, 10, None)],
        )
        .unwrap();
    store
        .add_version(
            id,
            &NewVersion {
                author: "resident".into(),
                title: format!("Правка {marker}"),
                body: format!("Новый текст {marker}."),
            },
        )
        .unwrap();
    id
}

fn files_containing(folder: &std::path::Path, marker: &str) -> Vec<String> {
    // The index holds the folded (lower-case) form, so both spellings are looked for.
    let needles = [marker.to_owned(), zayavka_store::fold(marker)];
    folder_files(folder)
        .into_iter()
        .filter(|(_, bytes)| needles.iter().any(|n| contains(bytes, n.as_bytes())))
        .map(|(path, _)| path.display().to_string())
        .collect()
}

#[test]
fn a_deleted_draft_leaves_no_byte_of_its_text() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let deleted_markers = ["ЩУКОЗАВРИК", "Zqxvortle"];
    let kept_markers = ["ЖИРАФОСЛОН", "Plimbrast"];
    let doomed: Vec<_> = deleted_markers
        .iter()
        .map(|m| marked_draft(&store, m))
        .collect();
    let kept: Vec<_> = kept_markers
        .iter()
        .map(|m| marked_draft(&store, m))
        .collect();
    // More drafts, so the index has several segments and pages are shared between drafts.
    for n in 0..40 {
        marked_draft(&store, &format!("обычный{n}"));
    }
    for marker in deleted_markers.iter().chain(&kept_markers) {
        assert!(
            !files_containing(&scratch.folder(), marker).is_empty(),
            "{marker} not stored"
        );
    }

    for id in &doomed {
        let deleted = store.delete_draft(*id).unwrap();
        assert!(deleted.log_cleared);
        assert!(store.get_draft(*id).unwrap().is_none());
    }
    for marker in deleted_markers {
        assert!(
            store.search_drafts(marker, 10).unwrap().is_empty(),
            "{marker} still found"
        );
        assert_eq!(
            files_containing(&scratch.folder(), marker),
            Vec::<String>::new(),
            "{marker} left in a file"
        );
    }
    for (marker, id) in kept_markers.iter().zip(&kept) {
        assert_eq!(store.search_drafts(marker, 10).unwrap()[0].id, *id);
        assert!(!files_containing(&scratch.folder(), marker).is_empty());
        // The prompt the deleted drafts shared with it is still whole in its record.
        let draft = store.get_draft(*id).unwrap().unwrap();
        assert_eq!(
            draft.records[0].record.record_json,
            record(marker).record_json
        );
    }
    // The same holds once the last connection has closed.
    drop(store);
    for marker in deleted_markers {
        assert!(
            files_containing(&scratch.folder(), marker).is_empty(),
            "{marker}"
        );
    }

    let store = scratch.open();
    let events = store.audit_events(Some(doomed[0])).unwrap();
    let last = events.last().unwrap();
    assert_eq!(last.kind, AuditKind::DraftDeleted);
    assert_eq!(
        (last.sha256.as_deref(), last.detail.as_deref()),
        (None, None)
    );
    // Deleting a draft deletes nothing of its history.
    assert_eq!(events.len(), 4);
}

#[test]
fn a_deleted_draft_of_a_batch_frees_its_row_link() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let batch = crate::batches::batch(&store, 2);
    let claimed = store.claim_row(&batch, 2).unwrap();
    store.delete_draft(claimed.draft_id).unwrap();
    let rows = store.batch_rows(&batch).unwrap();
    assert_eq!(rows[0].draft_id, None);
}
