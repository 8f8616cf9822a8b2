//! File-system failures are typed, with a Russian message that says what to do.

use zayavka_store::{Store, StoreError};

use crate::{Scratch, ready_draft};

#[test]
fn a_file_where_the_folder_should_be() {
    let scratch = Scratch::new();
    std::fs::write(scratch.folder(), "a file").unwrap();
    let error = Store::open(&scratch.db()).unwrap_err();
    assert!(
        matches!(&error, StoreError::NotAFolder { path } if path == &scratch.folder()),
        "{error:?}"
    );
    assert!(
        error.message_ru().contains("находится файл"),
        "{}",
        error.message_ru()
    );
}

#[test]
fn a_file_deeper_up_the_path() {
    let scratch = Scratch::new();
    std::fs::write(scratch.folder(), "a file").unwrap();
    let error = Store::open(&scratch.folder().join("x").join("z.sqlite3")).unwrap_err();
    assert_eq!(error.code(), "not_a_folder", "{error:?}");
}

#[test]
fn a_folder_where_the_file_should_be() {
    let scratch = Scratch::new();
    std::fs::create_dir_all(scratch.db()).unwrap();
    let error = Store::open(&scratch.db()).unwrap_err();
    assert_eq!(error.code(), "not_a_file", "{error:?}");
}

/// A folder that refuses writes. A folder of mode 0500 refuses them to an ordinary user; the
/// superuser ignores modes, so then the test uses sysfs, which refuses writes to everyone.
#[cfg(target_os = "linux")]
fn read_only_folder(scratch: &Scratch) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let folder = scratch.dir.path().join("read-only");
    std::fs::create_dir(&folder).unwrap();
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o500)).unwrap();
    if std::fs::write(folder.join("probe"), "x").is_ok() {
        return std::path::PathBuf::from("/sys");
    }
    folder
}

#[cfg(target_os = "linux")]
#[test]
fn a_read_only_folder() {
    let scratch = Scratch::new();
    let folder = read_only_folder(&scratch);
    let error = Store::open(&folder.join("zayavka.sqlite3")).unwrap_err();
    assert!(
        matches!(&error, StoreError::ReadOnly { path } if path == &folder),
        "{error:?}"
    );
    assert!(
        error.message_ru().contains("нельзя записывать"),
        "{}",
        error.message_ru()
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_read_only_folder_below_a_missing_one() {
    let scratch = Scratch::new();
    let folder = read_only_folder(&scratch);
    let error = Store::open(&folder.join("new").join("zayavka.sqlite3")).unwrap_err();
    assert_eq!(error.code(), "read_only", "{error:?}");
}

#[test]
fn backup_holds_the_drafts_and_never_overwrites() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let id = ready_draft(
        &store,
        "Течёт крыша над квартирой",
        "Течь кровли",
        "Течёт крыша.",
    );
    let target = scratch.dir.path().join("backup.sqlite3");
    store.backup_to(&target).unwrap();
    // The original keeps working, and the copy opens as a database of its own.
    ready_draft(&store, "Не работает лифт", "Лифт", "Лифт стоит.");
    let copy = Store::open(&target).unwrap();
    let draft = copy.get_draft(id).unwrap().unwrap();
    assert_eq!(draft.summary.title.as_deref(), Some("Течь кровли"));
    assert_eq!(copy.search_drafts("крыша", 5).unwrap().len(), 1);
    assert_eq!(copy.search_drafts("лифт", 5).unwrap().len(), 0);
    drop(copy);

    let before = std::fs::read(&target).unwrap();
    let error = store.backup_to(&target).unwrap_err();
    assert_eq!(error.code(), "backup_target_exists", "{error:?}");
    assert!(error.message_ru().contains("уже существует"));
    assert_eq!(std::fs::read(&target).unwrap(), before);
}

#[cfg(unix)]
#[test]
fn the_backup_is_private() {
    use std::os::unix::fs::PermissionsExt;
    let scratch = Scratch::new();
    let store = scratch.open();
    let target = scratch.dir.path().join("backup.sqlite3");
    store.backup_to(&target).unwrap();
    let mode = std::fs::metadata(&target).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
}
