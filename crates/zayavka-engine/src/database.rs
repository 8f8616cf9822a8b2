//! The drafts database in the data folder: opened (and created on first use) for every command
//! that stores or reads drafts, with the typed inputs an earlier run could only keep as files
//! imported on the way.

use zayavka_core::ResidentInput;
use zayavka_store::{NewDraft, Store, StoreError};

use crate::paths::Paths;

/// Opens the database in the data folder, creating it on first use. Typed inputs kept as
/// files in the pending folder — by earlier versions, or by a run that could not use the
/// database — are imported as pending drafts at the next open that can use it, and each file
/// is removed once it is in the database, so nothing typed is lost and nothing is imported
/// twice. An empty or missing pending folder costs one directory read.
pub fn open_store(paths: &Paths) -> Result<Store, StoreError> {
    let store = Store::open(&paths.database_file())?;
    import_pending_files(&store, paths);
    Ok(store)
}

/// Opens the database to look at the drafts: as [`open_store`] does, or, when the data folder or
/// its disk cannot be written, for reading only ([`Store::open_read_only`]), so that the saved
/// drafts stay readable on a write-protected or read-only disk. [`Store::is_read_only`] tells
/// which; a write through a read-only store is refused with nothing changed.
pub fn open_store_to_read(paths: &Paths) -> Result<Store, StoreError> {
    match open_store(paths) {
        Err(error @ (StoreError::ReadOnly { .. } | StoreError::WriteRefused)) => {
            Store::open_read_only(&paths.database_file()).map_err(|_| error)
        }
        opened => opened,
    }
}

/// Imports `pending/input-*.json` files; a file that cannot be read or stored stays where it
/// is, to be tried again next time.
fn import_pending_files(store: &Store, paths: &Paths) {
    let Ok(entries) = std::fs::read_dir(paths.pending_dir()) else {
        return;
    };
    let mut files: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(|name| name.starts_with("input-") && name.ends_with(".json"))
        })
        .collect();
    files.sort();
    for file in files {
        let Ok(text) = crate::read::read_text_file(
            &file,
            crate::read::FileRole::Input,
            crate::read::FileRole::Input.max_bytes(),
        ) else {
            continue;
        };
        let new = new_draft(&text, ResidentInput::from_json_str(&text).ok().as_ref());
        if store.create_draft(&new).is_ok() {
            let _ = std::fs::remove_file(&file);
        }
    }
}

/// The stored form of an input: as typed, and as checked when it passes the contract.
pub(crate) fn new_draft(raw_input_json: &str, checked: Option<&ResidentInput>) -> NewDraft {
    NewDraft {
        raw_input_json: raw_input_json.to_owned(),
        checked_input_json: checked.map(|input| {
            serde_json::to_string(&input.to_raw()).expect("a checked input serialises")
        }),
    }
}
