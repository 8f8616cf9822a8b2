//! Opening the database, its connection settings, transactions and whole-file operations.

use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, Transaction, TransactionBehavior};

use crate::error::{BUSY_TIMEOUT, BackupProblem, StoreError};
use crate::{migrations, schema_check};

/// How often, and how far apart, opening is tried again while a database reads as another
/// program's: about one second in all.
const OPEN_RETRIES: u32 = 20;
const OPEN_RETRY_PAUSE: Duration = Duration::from_millis(50);
/// How long to wait before asking again to switch to write-ahead logging.
const WAL_RETRY_PAUSE: Duration = Duration::from_millis(10);

/// The database: one connection to one file.
///
/// Every public operation is one transaction; writes begin with `BEGIN IMMEDIATE`, so two
/// processes writing at once queue on the write lock (up to five seconds) instead of failing
/// half-way. A `Store` is not shared between threads; each thread or process opens its own.
#[derive(Debug)]
pub struct Store {
    pub(crate) conn: Connection,
    path: PathBuf,
}

impl Store {
    /// Opens the database at `path`, creating it and its folders if needed, and brings its
    /// schema up to date.
    ///
    /// New folders are private to the user (mode 0700 on Unix) and a new file is mode 0600.
    /// A database from a newer version of Zayavka, or a file that is not a Zayavka database, is
    /// refused before anything is written to it.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        // Another process creating the same new database at this very moment (the app and the
        // command line started together, or several `draft` runs) can leave it, for a few
        // milliseconds, in a state that reads as another program's file. A file that really is
        // one reads so on every try, and is still refused unchanged.
        let mut tries = 0;
        loop {
            match Store::open_once(path) {
                Err(StoreError::NotOurDatabase { .. }) if tries < OPEN_RETRIES => {
                    tries += 1;
                    std::thread::sleep(OPEN_RETRY_PAUSE);
                }
                result => return result,
            }
        }
    }

    fn open_once(path: &Path) -> Result<Store, StoreError> {
        prepare_file(path)?;
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags).map_err(|e| open_error(e, path))?;
        schema_check::defend(&conn)?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        if conn.is_readonly(rusqlite::MAIN_DB)? {
            return Err(StoreError::ReadOnly {
                path: path.to_owned(),
            });
        }
        // Everything up to here only reads, so a database this version must not touch is
        // refused with its bytes unchanged: switching to WAL would already rewrite the header.
        // That includes one another program changed (issue 37): a trigger of its own would run
        // in the next write, a protective trigger removed would take a guarantee away.
        migrations::check_version(&conn, path).map_err(|e| refine(e, path))?;
        schema_check::check_schema(&conn, path).map_err(|e| refine(e, path))?;
        switch_to_wal(&conn).map_err(|e| refine(e.into(), path))?;
        conn.execute_batch(
            "PRAGMA synchronous = NORMAL;
             PRAGMA foreign_keys = ON;
             PRAGMA secure_delete = ON;
             PRAGMA trusted_schema = OFF;",
        )?;
        let mut store = Store {
            conn,
            path: path.to_owned(),
        };
        migrations::migrate(&mut store.conn, path).map_err(|e| refine(e, path))?;
        crate::search::create_vocabulary(&store.conn)?;
        Ok(store)
    }

    /// Opens, for reading only, a database on a disk or in a folder that cannot be written (a
    /// write-protected memory stick, a disk remounted read-only), so that the saved drafts can
    /// still be read there. [`Store::open`] cannot: a database in WAL mode needs its
    /// shared-memory file, which cannot be created there.
    ///
    /// Nothing can write a file on such a disk, so the database is opened as immutable; that is
    /// true only while no write-ahead log holds changes not yet folded into the file, and such
    /// a database is refused ([`StoreError::ReadOnly`]), as is one this version would first
    /// have to migrate. Every write through the returned store fails with
    /// [`StoreError::WriteRefused`].
    pub fn open_read_only(path: &Path) -> Result<Store, StoreError> {
        let folder = path.parent().unwrap_or(path).to_owned();
        let mut log = path.as_os_str().to_owned();
        log.push("-wal");
        let pending_log = fs::metadata(PathBuf::from(log)).is_ok_and(|log| log.len() > 0);
        if pending_log || !path.is_file() {
            return Err(StoreError::ReadOnly { path: folder });
        }
        let text = path.to_str().ok_or_else(|| StoreError::ReadOnly {
            path: folder.clone(),
        })?;
        // A URI path takes `%`, `?` and `#` escaped; nothing else in a file name matters here.
        let escaped = text
            .replace('%', "%25")
            .replace('?', "%3f")
            .replace('#', "%23");
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_URI
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(format!("file:{escaped}?immutable=1"), flags)
            .map_err(|e| open_error(e, path))?;
        schema_check::defend(&conn)?;
        migrations::check_version(&conn, path).map_err(|e| refine(e, path))?;
        schema_check::check_schema(&conn, path).map_err(|e| refine(e, path))?;
        if migrations::user_version(&conn)? != migrations::SCHEMA_VERSION {
            return Err(StoreError::ReadOnly { path: folder });
        }
        conn.execute_batch("PRAGMA trusted_schema = OFF;")?;
        crate::search::create_vocabulary(&conn)?;
        Ok(Store {
            conn,
            path: path.to_owned(),
        })
    }

    /// Whether this store was opened for reading only ([`Store::open_read_only`]).
    pub fn is_read_only(&self) -> bool {
        self.conn.is_readonly(rusqlite::MAIN_DB).unwrap_or(true)
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The schema version of the open database.
    pub fn schema_version(&self) -> Result<u32, StoreError> {
        migrations::user_version(&self.conn)
    }

    /// Writes a consistent copy of the whole database to `target`, even while other
    /// connections write. It never overwrites a file: an existing `target` is refused.
    ///
    /// The copy holds no freed pages, so no deleted text reaches it.
    pub fn backup_to(&self, target: &Path) -> Result<(), StoreError> {
        // Creating the file ourselves refuses an existing one without a race and makes the copy
        // private (0600) like the database; SQLite writes into an empty file.
        let created = create_private_file(target).map_err(|error| match error.kind() {
            ErrorKind::AlreadyExists => StoreError::BackupTargetExists {
                path: target.to_owned(),
            },
            ErrorKind::PermissionDenied | ErrorKind::ReadOnlyFilesystem => StoreError::ReadOnly {
                path: target.parent().unwrap_or(target).to_owned(),
            },
            ErrorKind::StorageFull | ErrorKind::QuotaExceeded => StoreError::DiskFull,
            _ => io_error(error, target),
        })?;
        drop(created);
        let result = (|| {
            let target_text = target.to_str().ok_or_else(|| StoreError::Io {
                path: target.to_owned(),
                source: std::io::Error::new(
                    ErrorKind::InvalidInput,
                    "the path is not valid Unicode",
                ),
            })?;
            self.conn.execute("VACUUM INTO ?1", [target_text])?;
            // Opened for writing, never truncated: Windows flushes a file only through a handle
            // that may write (`FlushFileBuffers` refuses a read-only one with «access denied»).
            fs::OpenOptions::new()
                .write(true)
                .open(target)
                .and_then(|file| file.sync_all())
                .map_err(|e| io_error(e, target))
        })();
        if result.is_err() {
            // Only the empty file this call created is removed; the copy is all or nothing.
            let _ = fs::remove_file(target);
        }
        result
    }

    /// Puts a copy of the backup file `backup` (written by [`Store::backup_to`], by any
    /// version of Zayavka) in place as the database `target`, and returns the restored store.
    ///
    /// The backup is copied, never moved, and opened like any database first: a file that is
    /// not a Zayavka database or comes from a newer version is refused with nothing changed,
    /// and an older one is migrated. An existing `target` is refused
    /// ([`StoreError::RestoreTargetExists`]) unless `set_aside` names where to move it — the
    /// database with its write-ahead log and shared-memory files, renamed together so that
    /// they stay one database. The restored file appears under `target` in one step (a hard
    /// link), or not at all.
    pub fn restore_backup(
        backup: &Path,
        target: &Path,
        set_aside: Option<&Path>,
    ) -> Result<Store, StoreError> {
        let target_exists = fs::symlink_metadata(target).is_ok();
        if target_exists && set_aside.is_none() {
            return Err(StoreError::RestoreTargetExists {
                path: target.to_owned(),
            });
        }
        let mut staging = target.as_os_str().to_owned();
        staging.push(".restoring");
        let staging = PathBuf::from(staging);
        // A restore interrupted earlier may have left its staging copy: it was never in place,
        // so it is only removed.
        remove_database_files(&staging);
        let result = (|| {
            if let Some(folder) = staging.parent().filter(|p| !p.as_os_str().is_empty()) {
                create_private_folders(folder).map_err(|e| io_error(e, folder))?;
            }
            let mut source = fs::File::open(backup).map_err(|e| io_error(e, backup))?;
            if !source
                .metadata()
                .map_err(|e| io_error(e, backup))?
                .is_file()
            {
                return Err(StoreError::NotAFile {
                    path: backup.to_owned(),
                });
            }
            let mut copy = create_private_file(&staging).map_err(|e| io_error(e, &staging))?;
            std::io::copy(&mut source, &mut copy).map_err(|e| io_error(e, &staging))?;
            copy.sync_all().map_err(|e| io_error(e, &staging))?;
            drop(copy);
            // The copy is input from anywhere (issue 37): verified before anything opens it
            // for writing.
            verify_backup(&staging, backup)?;
            // Opening migrates the copy; closing the only connection folds its write-ahead log
            // back into the file.
            let opened = Store::open(&staging).map_err(|error| match error {
                StoreError::NotOurDatabase { .. } => StoreError::NotOurDatabase {
                    path: backup.to_owned(),
                },
                other => other,
            })?;
            opened.checkpoint()?;
            drop(opened);
            if target_exists && let Some(aside) = set_aside {
                for suffix in ["", "-wal", "-shm"] {
                    let mut from = target.as_os_str().to_owned();
                    from.push(suffix);
                    let mut to = aside.as_os_str().to_owned();
                    to.push(suffix);
                    if fs::symlink_metadata(&from).is_ok() {
                        fs::rename(&from, &to).map_err(|e| io_error(e, Path::new(&from)))?;
                    }
                }
            }
            // A hard link never replaces a file, so a database created meanwhile is kept.
            fs::hard_link(&staging, target).map_err(|error| match error.kind() {
                ErrorKind::AlreadyExists => StoreError::RestoreTargetExists {
                    path: target.to_owned(),
                },
                _ => io_error(error, target),
            })?;
            Ok(())
        })();
        remove_database_files(&staging);
        result?;
        Store::open(target)
    }

    /// Moves every committed change into the database file and empties the write-ahead log.
    /// Returns `false` when another connection still reads an older snapshot, so the log could
    /// not be emptied yet.
    pub fn checkpoint(&self) -> Result<bool, StoreError> {
        let busy: i64 = self
            .conn
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |row| row.get(0))?;
        Ok(busy == 0)
    }

    /// Begins a write transaction that takes the write lock at once.
    pub(crate) fn write(&self) -> Result<Transaction<'_>, StoreError> {
        Ok(Transaction::new_unchecked(
            &self.conn,
            TransactionBehavior::Immediate,
        )?)
    }

    /// Commits a write transaction, passing the write points `<operation>.commit` just before
    /// and `<operation>.committed` just after (see `faults`).
    pub(crate) fn commit(tx: Transaction<'_>, operation: &str) -> Result<(), StoreError> {
        crate::faults::point(operation, "commit");
        tx.commit()?;
        crate::faults::point(operation, "committed");
        Ok(())
    }

    /// Begins a read transaction, so that a read of several tables sees one snapshot.
    pub(crate) fn read(&self) -> Result<Transaction<'_>, StoreError> {
        Ok(Transaction::new_unchecked(
            &self.conn,
            TransactionBehavior::Deferred,
        )?)
    }
}

/// Verifies the copy `staging` of the file offered as a backup (`backup`, named in errors)
/// before anything trusts it (issue 37): opened read-only, defensively and with
/// `trusted_schema` off; not empty, an SQLite database, Zayavka's (its application id), of a
/// version this code knows; every schema object exactly its version's; SQLite's integrity and
/// foreign-key checks clean. An older version is migrated only after all that, by the caller.
fn verify_backup(staging: &Path, backup: &Path) -> Result<(), StoreError> {
    let unusable = |problem| StoreError::UnusableBackup {
        path: backup.to_owned(),
        problem,
    };
    if fs::metadata(staging)
        .map_err(|e| io_error(e, staging))?
        .len()
        == 0
    {
        return Err(unusable(BackupProblem::NotADatabase));
    }
    let conn = Connection::open_with_flags(
        staging,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|_| unusable(BackupProblem::NotADatabase))?;
    schema_check::defend(&conn)?;
    // Any failure to read what every SQLite database has is a file that is not one.
    let damaged = |error: StoreError| match error {
        StoreError::Corrupt => unusable(BackupProblem::Damaged),
        StoreError::NotOurDatabase { .. } => unusable(BackupProblem::AnotherProgram),
        StoreError::ForeignSchema { differences, .. } => {
            unusable(BackupProblem::Changed(differences))
        }
        // A newer version, a full disk, a busy or failing disk: said as such, never as a fault
        // of the file.
        other => other,
    };
    // A file SQLite cannot read as a database at all (text, a photo, a cut header).
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |row| row.get(0))
        .map_err(|error| match error.sqlite_error_code() {
            Some(rusqlite::ErrorCode::NotADatabase | rusqlite::ErrorCode::DatabaseCorrupt) => {
                unusable(BackupProblem::NotADatabase)
            }
            _ => StoreError::from(error),
        })?;
    migrations::check_version(&conn, backup).map_err(damaged)?;
    if version == 0 {
        // An SQLite file with nothing in it: no backup ever looks like that.
        return Err(unusable(BackupProblem::NotADatabase));
    }
    schema_check::check_schema(&conn, backup).map_err(damaged)?;
    let integrity: String = conn
        .query_row("PRAGMA integrity_check(1)", [], |row| row.get(0))
        .map_err(|_| unusable(BackupProblem::Damaged))?;
    if integrity != "ok" {
        return Err(unusable(BackupProblem::Damaged));
    }
    let orphans = conn
        .prepare("PRAGMA foreign_key_check")
        .and_then(|mut statement| statement.query([])?.next().map(|row| row.is_some()))
        .map_err(|_| unusable(BackupProblem::Damaged))?;
    if orphans {
        return Err(unusable(BackupProblem::Damaged));
    }
    Ok(())
}

/// Makes sure the folders exist and the path can hold a database file, with clear errors for
/// a file where a folder should be, a folder where the file should be, and a folder that cannot
/// be written.
fn prepare_file(path: &Path) -> Result<(), StoreError> {
    if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        // The nearest existing ancestor tells a file in the way from a missing folder.
        if let Some(existing) = folder.ancestors().find(|a| a.exists())
            && !existing.is_dir()
        {
            return Err(StoreError::NotAFolder {
                path: existing.to_owned(),
            });
        }
        create_private_folders(folder).map_err(|error| match error.kind() {
            ErrorKind::PermissionDenied | ErrorKind::ReadOnlyFilesystem => StoreError::ReadOnly {
                path: folder.to_owned(),
            },
            ErrorKind::NotADirectory | ErrorKind::AlreadyExists => StoreError::NotAFolder {
                path: folder.to_owned(),
            },
            _ => io_error(error, folder),
        })?;
    }
    if path.is_dir() {
        return Err(StoreError::NotAFile {
            path: path.to_owned(),
        });
    }
    match create_private_file(path) {
        Ok(_) => Ok(()),
        Err(error) if error.kind() == ErrorKind::AlreadyExists => Ok(()),
        Err(error)
            if matches!(
                error.kind(),
                ErrorKind::PermissionDenied | ErrorKind::ReadOnlyFilesystem
            ) =>
        {
            Err(StoreError::ReadOnly {
                path: path.parent().unwrap_or(path).to_owned(),
            })
        }
        Err(error) => Err(io_error(error, path)),
    }
}

#[cfg(unix)]
fn create_private_folders(folder: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(folder)
}

#[cfg(not(unix))]
fn create_private_folders(folder: &Path) -> std::io::Result<()> {
    fs::create_dir_all(folder)
}

#[cfg(unix)]
pub(crate) fn create_private_file(path: &Path) -> std::io::Result<fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
}

#[cfg(not(unix))]
pub(crate) fn create_private_file(path: &Path) -> std::io::Result<fs::File> {
    fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
}

/// Removes a database file and its write-ahead log and shared-memory files, where present.
pub(crate) fn remove_database_files(path: &Path) {
    for suffix in ["", "-wal", "-shm"] {
        let mut file = path.as_os_str().to_owned();
        file.push(suffix);
        let _ = fs::remove_file(file);
    }
}

pub(crate) fn io_error(source: std::io::Error, path: &Path) -> StoreError {
    // A full or read-only disk says so, whichever file met it (a restore's staging copy, a
    // recovery's new database), rather than asking whether the path is right.
    match source.kind() {
        ErrorKind::StorageFull | ErrorKind::QuotaExceeded => StoreError::DiskFull,
        ErrorKind::ReadOnlyFilesystem => StoreError::ReadOnly {
            path: path
                .parent()
                .filter(|folder| !folder.as_os_str().is_empty())
                .unwrap_or(path)
                .to_owned(),
        },
        _ => StoreError::Io {
            path: path.to_owned(),
            source,
        },
    }
}

/// Switches the database to write-ahead logging, waiting as long as any other lock would be
/// waited for. SQLite answers «busy» at once, without calling the busy handler, when another
/// connection is switching the same new file at that moment (the app and the command line
/// started together, or several runs at once), so the wait is done here.
fn switch_to_wal(conn: &Connection) -> Result<(), rusqlite::Error> {
    let started = std::time::Instant::now();
    loop {
        match conn.pragma_update_and_check(None, "journal_mode", "WAL", |_| Ok(())) {
            Err(rusqlite::Error::SqliteFailure(failure, _))
                if failure.code == rusqlite::ErrorCode::DatabaseBusy
                    && started.elapsed() < BUSY_TIMEOUT =>
            {
                std::thread::sleep(WAL_RETRY_PAUSE);
            }
            result => return result,
        }
    }
}

fn open_error(error: rusqlite::Error, path: &Path) -> StoreError {
    refine(error.into(), path)
}

/// Names the failures that only make sense with the path: a read-only folder or file, a file
/// that is not a database.
fn refine(error: StoreError, path: &Path) -> StoreError {
    use rusqlite::ErrorCode;
    // While opening, a database that cannot be written is named with its path.
    if let StoreError::WriteRefused = error {
        return StoreError::ReadOnly {
            path: path.to_owned(),
        };
    }
    let StoreError::Database(ref inner) = error else {
        return error;
    };
    match inner.sqlite_code() {
        Some(ErrorCode::CannotOpen) => StoreError::ReadOnly {
            path: path.parent().unwrap_or(path).to_owned(),
        },
        Some(ErrorCode::NotADatabase) => StoreError::NotOurDatabase {
            path: path.to_owned(),
        },
        _ => error,
    }
}

#[cfg(test)]
mod tests {
    use crate::{DraftFilter, NewDraft, Store, StoreError};

    fn draft(store: &Store, description: &str) {
        let raw = serde_json::json!({ "description": description }).to_string();
        store
            .create_draft(&NewDraft {
                raw_input_json: raw,
                checked_input_json: None,
            })
            .unwrap();
    }

    #[test]
    fn a_database_opened_read_only_reads_everything_and_refuses_every_write() {
        let folder = tempfile::tempdir().unwrap();
        // The characters an SQLite URI would misread (`?` is no file-name character on Windows).
        let name = if cfg!(windows) {
            "z #1%.sqlite3"
        } else {
            "z #1?%.sqlite3"
        };
        let path = folder.path().join(name);
        draft(&Store::open(&path).unwrap(), "В подъезде не горит свет");
        let before = std::fs::read(&path).unwrap();
        let store = Store::open_read_only(&path).unwrap();
        assert!(store.is_read_only());
        assert!(!Store::open(&path).unwrap().is_read_only());
        assert_eq!(store.list_drafts(&DraftFilter::default()).unwrap().len(), 1);
        assert_eq!(store.search_drafts("подъезд", 10).unwrap().len(), 1);
        let refused = store.create_draft(&NewDraft {
            raw_input_json: r#"{"description":"x"}"#.to_owned(),
            checked_input_json: None,
        });
        assert!(
            matches!(refused, Err(StoreError::WriteRefused)),
            "{refused:?}"
        );
        drop(store);
        assert_eq!(std::fs::read(&path).unwrap(), before);
    }

    #[test]
    fn a_database_with_changes_still_in_its_log_is_not_opened_read_only() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("z.sqlite3");
        let writer = Store::open(&path).unwrap();
        draft(&writer, "В подъезде не горит свет");
        // The writer is still open, so its change is in the write-ahead log only.
        assert!(matches!(
            Store::open_read_only(&path),
            Err(StoreError::ReadOnly { .. })
        ));
        drop(writer);
        assert!(Store::open_read_only(&path).is_ok());
        assert!(matches!(
            Store::open_read_only(&folder.path().join("missing.sqlite3")),
            Err(StoreError::ReadOnly { .. })
        ));
    }
}
