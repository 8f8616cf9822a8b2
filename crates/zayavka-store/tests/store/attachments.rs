//! Photos attached to drafts: all or none, listed in order, removed without a byte left, and
//! part of every backup.

use zayavka_store::{AuditKind, NewAttachment, Store, StoreError};

use crate::{Scratch, contains, folder_files, ready_draft};

/// Bytes standing for a photo, carrying `marker` many times over several pages, as a real
/// photo's bytes would fill several database pages.
fn photo(marker: &str, size: usize) -> NewAttachment {
    let mut bytes = Vec::with_capacity(size);
    while bytes.len() < size {
        bytes.extend_from_slice(marker.as_bytes());
        bytes.push(b'.');
    }
    bytes.truncate(size);
    NewAttachment {
        media_type: "image/jpeg".to_owned(),
        width: 640,
        height: 480,
        bytes,
    }
}

fn files_with(scratch: &Scratch, marker: &str) -> Vec<String> {
    folder_files(&scratch.folder())
        .into_iter()
        .filter(|(_, bytes)| contains(bytes, marker.as_bytes()))
        .map(|(path, _)| path.display().to_string())
        .collect()
}

#[test]
fn photos_are_attached_listed_numbered_and_read_back() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let id = ready_draft(&store, "Не горит свет в подъезде", "Свет", "Текст.");
    let list = store
        .add_attachments(
            id,
            &[photo("FIRSTPHOTO", 20_000), photo("SECONDPHOTO", 300)],
            10,
        )
        .unwrap();
    assert_eq!(list.iter().map(|a| a.number).collect::<Vec<_>>(), [1, 2]);
    assert_eq!(list[0].byte_size, 20_000);
    assert_eq!((list[0].width, list[0].height), (640, 480));
    assert_eq!(store.attachments(id).unwrap(), list);
    let with_bytes = store.attachments_with_bytes(id).unwrap();
    assert_eq!(with_bytes[0].1, photo("FIRSTPHOTO", 20_000).bytes);
    assert_eq!(with_bytes[1].1, photo("SECONDPHOTO", 300).bytes);

    let events = store.audit_events(Some(id)).unwrap();
    let added: Vec<_> = events
        .iter()
        .filter(|e| e.kind == AuditKind::AttachmentAdded)
        .collect();
    assert_eq!(added.len(), 2);
    assert_eq!(added[0].sha256.as_deref(), Some(list[0].sha256.as_str()));
    assert_eq!(
        added[0].detail.as_deref(),
        Some(format!("attachment_{}", list[0].id.get()).as_str())
    );
}

#[test]
fn over_the_limit_nothing_is_attached() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let id = ready_draft(&store, "Не горит свет в подъезде", "Свет", "Текст.");
    store.add_attachments(id, &[photo("A", 100)], 2).unwrap();
    let error = store
        .add_attachments(id, &[photo("B", 100), photo("C", 100)], 2)
        .unwrap_err();
    assert!(
        matches!(
            error,
            StoreError::TooManyAttachments {
                existing: 1,
                adding: 2,
                limit: 2,
                ..
            }
        ),
        "{error:?}"
    );
    assert_eq!(store.attachments(id).unwrap().len(), 1);
    let missing = zayavka_store::DraftId::new(999).unwrap();
    assert!(matches!(
        store.add_attachments(missing, &[photo("D", 10)], 2),
        Err(StoreError::DraftNotFound(_))
    ));
    let wrong_type = NewAttachment {
        media_type: "image/gif".to_owned(),
        ..photo("E", 10)
    };
    assert!(store.add_attachments(id, &[wrong_type], 5).is_err());
    assert_eq!(store.attachments(id).unwrap().len(), 1);
}

#[test]
fn a_removed_photo_leaves_no_byte_and_the_numbers_close_up() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let id = ready_draft(&store, "Не горит свет в подъезде", "Свет", "Текст.");
    store
        .add_attachments(
            id,
            &[
                photo("KEEPONEPHOTO", 9_000),
                photo("GONEPHOTOMARK", 50_000),
                photo("KEEPTWOPHOTO", 9_000),
            ],
            10,
        )
        .unwrap();
    assert!(!files_with(&scratch, "GONEPHOTOMARK").is_empty());
    let removed = store.remove_attachment(id, 2).unwrap();
    assert!(removed.log_cleared);
    assert_eq!(removed.removed.byte_size, 50_000);
    assert_eq!(files_with(&scratch, "GONEPHOTOMARK"), Vec::<String>::new());
    let list = store.attachments(id).unwrap();
    assert_eq!(list.iter().map(|a| a.number).collect::<Vec<_>>(), [1, 2]);
    assert!(!files_with(&scratch, "KEEPTWOPHOTO").is_empty());
    assert!(matches!(
        store.remove_attachment(id, 3),
        Err(StoreError::AttachmentNotFound { number: 3, .. })
    ));
    let last = store.audit_events(Some(id)).unwrap().pop().unwrap();
    assert_eq!(last.kind, AuditKind::AttachmentRemoved);
    assert_eq!(last.sha256, Some(removed.removed.sha256));
}

#[test]
fn deleting_a_draft_deletes_its_photos_to_the_last_byte() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let doomed = ready_draft(&store, "Не горит свет в подъезде", "Свет", "Текст.");
    let kept = ready_draft(&store, "Течёт крыша над квартирой", "Крыша", "Текст.");
    store
        .add_attachments(doomed, &[photo("DOOMEDPHOTOMARK", 200_000)], 10)
        .unwrap();
    store
        .add_attachments(kept, &[photo("KEPTPHOTOMARK", 100_000)], 10)
        .unwrap();
    assert!(!files_with(&scratch, "DOOMEDPHOTOMARK").is_empty());
    assert!(store.delete_draft(doomed).unwrap().log_cleared);
    assert_eq!(
        files_with(&scratch, "DOOMEDPHOTOMARK"),
        Vec::<String>::new()
    );
    assert_eq!(store.attachments(kept).unwrap().len(), 1);
    drop(store);
    assert_eq!(
        files_with(&scratch, "DOOMEDPHOTOMARK"),
        Vec::<String>::new()
    );
    assert!(!files_with(&scratch, "KEPTPHOTOMARK").is_empty());
    // The audit log keeps ids and hashes only: no byte of a photo.
    let store = scratch.open();
    for event in store.audit_events(Some(doomed)).unwrap() {
        assert!(event.detail.is_none_or(|d| !d.contains("PHOTO")));
    }
}

#[test]
fn a_backup_holds_the_photos() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let id = ready_draft(&store, "Не горит свет в подъезде", "Свет", "Текст.");
    let list = store
        .add_attachments(id, &[photo("BACKEDUPPHOTO", 70_000)], 10)
        .unwrap();
    let target = scratch.dir.path().join("copy.sqlite3");
    store.backup_to(&target).unwrap();
    let copy = Store::open(&target).unwrap();
    assert_eq!(copy.attachments(id).unwrap(), list);
    assert_eq!(
        copy.attachments_with_bytes(id).unwrap()[0].1,
        photo("BACKEDUPPHOTO", 70_000).bytes
    );
}
