//! Recovery: what SQLite can still read of a damaged database, copied into a new one.
//!
//! The damaged file is only ever read, and only as bytes: it is copied (with its write-ahead
//! log) to a scratch file beside the target, and SQLite opens the scratch copy, never the
//! original. Each table is read row by row from both ends, and a table with row ids is probed
//! id by id between the damaged places, so one unreadable page costs the rows on it and no
//! more. Rows whose parent was lost (a version of a draft that could not be read) are dropped,
//! a draft whose batch row was lost keeps its text and loses the link, and the search index
//! is rebuilt from the drafts that came through.
//!
//! The new database's schema is always exactly the current version's: only rows are carried
//! over, never a table, index, trigger or view of the damaged file, and only from its real
//! tables (issue 37), so recovering is also the way back from a database another program
//! changed.

use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use rusqlite::types::Value;
use rusqlite::{Connection, OpenFlags, params_from_iter};

use crate::error::StoreError;
use crate::model::DraftId;
use crate::store::{Store, create_private_file, io_error, remove_database_files};

/// How far past the last row id a scan read the probing goes when the largest id itself cannot
/// be read.
const PROBE_WITHOUT_MAXIMUM: i64 = 10_000;

/// What [`Store::recover_into`] brought over.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Recovery {
    /// The drafts in the new database.
    pub drafts: u64,
    /// Rows copied, over all tables.
    pub rows: u64,
    /// The tables where SQLite met a damaged place, so some of their rows may be lost.
    pub damaged_tables: Vec<String>,
}

impl Store {
    /// Copies whatever SQLite can still read of the database `damaged` into a new database at
    /// `target`, which must not exist yet, and returns what came through.
    ///
    /// `damaged` is read as bytes only and never opened by SQLite, so nothing — not even a
    /// write-ahead log replay — changes it. A file that is not an SQLite database at all is
    /// [`StoreError::NotOurDatabase`]; one from a newer version is [`StoreError::NewerSchema`].
    /// On any failure the half-made target is removed.
    pub fn recover_into(damaged: &Path, target: &Path) -> Result<Recovery, StoreError> {
        if !damaged.is_file() {
            return Err(StoreError::NoDatabase {
                path: damaged.to_owned(),
            });
        }
        drop(
            create_private_file(target).map_err(|error| match error.kind() {
                ErrorKind::AlreadyExists => StoreError::RecoverTargetExists {
                    path: target.to_owned(),
                },
                _ => io_error(error, target),
            })?,
        );
        let mut scratch = target.as_os_str().to_owned();
        scratch.push(".source");
        let scratch = PathBuf::from(scratch);
        let result = recover(damaged, &scratch, target);
        remove_database_files(&scratch);
        if result.is_err() {
            remove_database_files(target);
        }
        result
    }
}

fn recover(damaged: &Path, scratch: &Path, target: &Path) -> Result<Recovery, StoreError> {
    for suffix in ["", "-wal"] {
        let mut from = damaged.as_os_str().to_owned();
        from.push(suffix);
        let mut to = scratch.as_os_str().to_owned();
        to.push(suffix);
        let from = PathBuf::from(from);
        if suffix.is_empty() || from.is_file() {
            let mut source = fs::File::open(&from).map_err(|e| io_error(e, &from))?;
            let to = PathBuf::from(to);
            let mut copy = create_private_file(&to).map_err(|e| io_error(e, &to))?;
            std::io::copy(&mut source, &mut copy).map_err(|e| io_error(e, &to))?;
        }
    }
    let source = Connection::open_with_flags(
        scratch,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|_| not_ours(damaged))?;
    crate::schema_check::defend(&source)?;
    // A file SQLite cannot even read the header of has nothing to give.
    let version: i64 = source
        .query_row("PRAGMA user_version", [], |row| row.get(0))
        .map_err(|_| not_ours(damaged))?;
    let version = u32::try_from(version).map_err(|_| not_ours(damaged))?;
    if version > crate::SCHEMA_VERSION {
        return Err(StoreError::NewerSchema {
            found: version,
            supported: crate::SCHEMA_VERSION,
        });
    }
    drop(source);
    let store = Store::open(target)?;
    let conn = &store.conn;
    conn.execute_batch("PRAGMA foreign_keys = OFF")?;
    let scratch_text = scratch.to_str().ok_or_else(|| StoreError::Io {
        path: scratch.to_owned(),
        source: std::io::Error::new(ErrorKind::InvalidInput, "the path is not valid Unicode"),
    })?;
    conn.execute("ATTACH DATABASE ?1 AS damaged", [scratch_text])
        .map_err(|_| not_ours(damaged))?;
    let tables = copied_tables(conn)?;
    let mut rows = 0;
    let mut damaged_tables = Vec::new();
    for table in &tables {
        let copied = copy_table(conn, table)?;
        rows += copied.rows;
        if copied.damaged {
            damaged_tables.push(table.name.clone());
        }
    }
    conn.execute_batch("DETACH DATABASE damaged")?;
    drop_orphans(conn)?;
    conn.execute_batch("PRAGMA foreign_keys = ON")?;
    let ids: Vec<DraftId> = conn
        .prepare("SELECT id FROM drafts ORDER BY id")?
        .query_map([], |row| row.get(0))?
        .collect::<Result<_, _>>()?;
    let tx = store.write()?;
    for id in &ids {
        crate::search::refresh(&tx, *id)?;
    }
    tx.commit()?;
    let problems: String = store
        .conn
        .query_row("PRAGMA integrity_check", [], |row| row.get(0))?;
    if problems != "ok" {
        return Err(StoreError::Corrupt);
    }
    store.checkpoint()?;
    Ok(Recovery {
        drafts: ids.len() as u64,
        rows,
        damaged_tables,
    })
}

fn not_ours(path: &Path) -> StoreError {
    StoreError::NotOurDatabase {
        path: path.to_owned(),
    }
}

/// A table of the new database and how to read it from the damaged one.
struct Table {
    name: String,
    /// The columns both databases have, in the new one's order.
    columns: Vec<String>,
    /// The primary key's columns, for reading from the far end.
    key: Vec<String>,
    /// Whether the table has row ids to probe.
    has_rowid: bool,
}

/// The ordinary tables of the new database, parents first (as the migrations created them),
/// with the columns the damaged database has too. A table the damaged one lacks or cannot
/// describe is left empty.
fn copied_tables(conn: &Connection) -> Result<Vec<Table>, StoreError> {
    let listed: Vec<(String, String)> = conn
        .prepare(
            "SELECT name, sql FROM main.sqlite_schema
             WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
               AND sql NOT LIKE 'CREATE VIRTUAL%' AND name NOT LIKE 'draft_search_%'
             ORDER BY rowid",
        )?
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<Result<_, _>>()?;
    let mut tables = Vec::new();
    for (name, sql) in listed {
        // Only rows are carried over, and only from a real table: a view another program put
        // in a table's place is SQL of its own, never run (issue 37).
        let theirs_is_a_table = conn
            .query_row(
                "SELECT count(*) FROM damaged.sqlite_schema WHERE type = 'table' AND name = ?1",
                [&name],
                |row| row.get::<_, i64>(0),
            )
            .is_ok_and(|count| count == 1);
        if !theirs_is_a_table {
            continue;
        }
        let ours = table_columns(conn, "main", &name)?;
        let Ok(theirs) = table_columns(conn, "damaged", &name) else {
            continue;
        };
        let theirs: Vec<String> = theirs.into_iter().map(|(column, _)| column).collect();
        let mut key: Vec<(i64, String)> = ours
            .iter()
            .filter(|(_, pk)| *pk > 0)
            .map(|(column, pk)| (*pk, column.clone()))
            .collect();
        key.sort();
        let columns: Vec<String> = ours
            .into_iter()
            .map(|(column, _)| column)
            .filter(|column| theirs.contains(column))
            .collect();
        if columns.is_empty() {
            continue;
        }
        tables.push(Table {
            has_rowid: !sql.to_ascii_uppercase().contains("WITHOUT ROWID"),
            name,
            columns,
            key: key.into_iter().map(|(_, column)| column).collect(),
        });
    }
    Ok(tables)
}

/// A table's columns with their place in the primary key (0 when not in it).
fn table_columns(
    conn: &Connection,
    schema: &str,
    table: &str,
) -> Result<Vec<(String, i64)>, StoreError> {
    let columns: Vec<(String, i64)> = conn
        .prepare(&format!("PRAGMA {schema}.table_info({})", quoted(table)))?
        .query_map([], |row| Ok((row.get(1)?, row.get(5)?)))?
        .collect::<Result<_, _>>()?;
    Ok(columns)
}

fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

struct Copied {
    rows: u64,
    damaged: bool,
}

/// Copies one table: a scan from the start until the first damaged place, one from the end back
/// to it, and for a table with row ids every id in between, one by one.
fn copy_table(conn: &Connection, table: &Table) -> Result<Copied, StoreError> {
    let names = table
        .columns
        .iter()
        .map(|column| quoted(column))
        .collect::<Vec<_>>()
        .join(", ");
    let marks = vec!["?"; table.columns.len()].join(", ");
    let name = quoted(&table.name);
    let insert = format!("INSERT OR IGNORE INTO main.{name} ({names}) VALUES ({marks})");
    let order = if table.has_rowid {
        "rowid".to_owned()
    } else {
        table
            .key
            .iter()
            .map(|column| quoted(column))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let descending = if table.has_rowid {
        "rowid DESC".to_owned()
    } else {
        table
            .key
            .iter()
            .map(|column| format!("{} DESC", quoted(column)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let rowid = if table.has_rowid { "rowid, " } else { "" };
    let mut copied = Copied {
        rows: 0,
        damaged: false,
    };
    let forward = scan(
        conn,
        &format!("SELECT {rowid}{names} FROM damaged.{name} ORDER BY {order}"),
        table.has_rowid,
        &insert,
        &mut copied,
    )?;
    if !copied.damaged {
        return Ok(copied);
    }
    let backward = scan(
        conn,
        &format!("SELECT {rowid}{names} FROM damaged.{name} ORDER BY {descending}"),
        table.has_rowid,
        &insert,
        &mut copied,
    )?;
    if table.has_rowid {
        let from = forward.last_rowid.map_or(1, |id| id + 1);
        let to = match backward.first_rowid {
            Some(id) => id - 1,
            None => conn
                .query_row(
                    &format!("SELECT max(rowid) FROM damaged.{name}"),
                    [],
                    |row| row.get::<_, Option<i64>>(0),
                )
                .ok()
                .flatten()
                .unwrap_or(from + PROBE_WITHOUT_MAXIMUM),
        };
        let select = format!("SELECT {names} FROM damaged.{name} WHERE rowid = ?1");
        for id in from..=to {
            let row: Option<Vec<Value>> = conn
                .query_row(&select, [id], |row| {
                    (0..table.columns.len())
                        .map(|index| row.get::<_, Value>(index))
                        .collect()
                })
                .ok();
            if let Some(values) = row {
                insert_row(conn, &insert, values, &mut copied)?;
            }
        }
    }
    Ok(copied)
}

/// Where a scan stopped: the row ids it read at its end.
struct Scanned {
    /// The last row id read (the largest for a forward scan).
    last_rowid: Option<i64>,
    /// The last row id a backward scan read (the smallest it reached).
    first_rowid: Option<i64>,
}

/// Reads rows with `select` and writes each with `insert` until the end or the first damaged
/// place.
fn scan(
    conn: &Connection,
    select: &str,
    has_rowid: bool,
    insert: &str,
    copied: &mut Copied,
) -> Result<Scanned, StoreError> {
    let mut scanned = Scanned {
        last_rowid: None,
        first_rowid: None,
    };
    let Ok(mut statement) = conn.prepare(select) else {
        copied.damaged = true;
        return Ok(scanned);
    };
    let width = statement.column_count();
    let Ok(mut rows) = statement.query([]) else {
        copied.damaged = true;
        return Ok(scanned);
    };
    let skip = usize::from(has_rowid);
    loop {
        match rows.next() {
            Ok(Some(row)) => {
                let values: Result<Vec<Value>, _> = (skip..width)
                    .map(|index| row.get::<_, Value>(index))
                    .collect();
                let Ok(values) = values else {
                    copied.damaged = true;
                    break;
                };
                if has_rowid {
                    let id: i64 = row.get(0)?;
                    scanned.last_rowid = Some(id);
                    scanned.first_rowid = Some(id);
                }
                insert_row(conn, insert, values, copied)?;
            }
            Ok(None) => break,
            Err(_) => {
                copied.damaged = true;
                break;
            }
        }
    }
    Ok(scanned)
}

/// Writes one row read from the damaged database. A row the new schema refuses (its bytes were
/// damaged into values no draft can have) is left out and counted as damage; a failure of the
/// new database itself (a full disk) stops the recovery.
fn insert_row(
    conn: &Connection,
    insert: &str,
    values: Vec<Value>,
    copied: &mut Copied,
) -> Result<(), StoreError> {
    match conn.execute(insert, params_from_iter(values)) {
        Ok(written) => {
            copied.rows += written as u64;
            Ok(())
        }
        Err(error)
            if error.sqlite_error_code() == Some(rusqlite::ErrorCode::ConstraintViolation) =>
        {
            copied.damaged = true;
            Ok(())
        }
        Err(error) => Err(error.into()),
    }
}

/// Drops the rows whose parent did not come through, and unlinks a draft from a batch row
/// that did not, so that the new database keeps its foreign keys. Runs until nothing is left,
/// since dropping a batch row can leave a draft pointing at it.
fn drop_orphans(conn: &Connection) -> Result<(), StoreError> {
    loop {
        let orphans: Vec<(String, Option<i64>)> = conn
            .prepare("PRAGMA main.foreign_key_check")?
            .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
            .collect::<Result<_, _>>()?;
        if orphans.is_empty() {
            return Ok(());
        }
        for (table, rowid) in orphans {
            let table = quoted(&table);
            match rowid {
                Some(rowid) if table == "\"drafts\"" => {
                    conn.execute(
                        "UPDATE main.drafts SET batch_id = NULL, batch_row = NULL WHERE rowid = ?1",
                        [rowid],
                    )?;
                }
                Some(rowid) => {
                    conn.execute(
                        &format!("DELETE FROM main.{table} WHERE rowid = ?1"),
                        [rowid],
                    )?;
                }
                // A table without row ids names no row: its orphans go by a join.
                None => delete_orphans_without_rowid(conn, &table)?,
            }
        }
    }
}

fn delete_orphans_without_rowid(conn: &Connection, table: &str) -> Result<(), StoreError> {
    let sql = match table {
        "\"draft_versions\"" => {
            "DELETE FROM main.draft_versions
             WHERE draft_id NOT IN (SELECT id FROM main.drafts)"
        }
        "\"batch_rows\"" => {
            "DELETE FROM main.batch_rows
             WHERE batch_id NOT IN (SELECT id FROM main.batches)"
        }
        "\"context_record_pieces\"" => {
            "DELETE FROM main.context_record_pieces
             WHERE record_id NOT IN (SELECT id FROM main.context_records)
                OR sha256 NOT IN (SELECT sha256 FROM main.record_pieces)"
        }
        _ => return Err(StoreError::Corrupt),
    };
    conn.execute(sql, [])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::{DraftFilter, NewDraft, NewVersion, Store, StoreError};

    const PAGE: usize = 4096;

    /// A long description, so that the drafts fill several pages; the number ends in a space so
    /// that «№ 1 » is not found inside «№ 12 ».
    fn description(number: u32) -> String {
        format!(
            "Черновик № {number} : {}",
            "в подъезде не горит свет. ".repeat(40)
        )
    }

    fn database_with_drafts(path: &Path, count: u32) {
        let store = Store::open(path).unwrap();
        for number in 1..=count {
            let raw = serde_json::json!({ "description": description(number) }).to_string();
            let id = store
                .create_draft(&NewDraft {
                    raw_input_json: raw,
                    checked_input_json: None,
                })
                .unwrap();
            store
                .add_version(
                    id,
                    &NewVersion {
                        author: "resident".to_owned(),
                        title: format!("Заголовок {number}"),
                        body: "Текст".to_owned(),
                    },
                )
                .unwrap();
        }
        store.checkpoint().unwrap();
    }

    /// Overwrites with garbage the table leaf page that holds `marker`, and returns the numbers
    /// of the drafts it held.
    fn overwrite_leaf_holding(path: &Path, marker: &str) -> Vec<u32> {
        let mut bytes = std::fs::read(path).unwrap();
        let page = (1..bytes.len() / PAGE)
            .find(|&page| {
                let start = page * PAGE;
                let content = &bytes[start..start + PAGE];
                content[0] == 0x0D
                    && content
                        .windows(marker.len())
                        .any(|window| window == marker.as_bytes())
            })
            .expect("a leaf page holds the marker");
        let held = (1..=1000)
            .filter(|number| {
                let marker = format!("Черновик № {number} ");
                bytes[page * PAGE..(page + 1) * PAGE]
                    .windows(marker.len())
                    .any(|window| window == marker.as_bytes())
            })
            .collect();
        for (offset, byte) in bytes[page * PAGE..(page + 1) * PAGE].iter_mut().enumerate() {
            *byte = (offset * 7 + 13) as u8;
        }
        std::fs::write(path, bytes).unwrap();
        held
    }

    fn descriptions(store: &Store) -> Vec<String> {
        store
            .list_drafts(&DraftFilter::default())
            .unwrap()
            .into_iter()
            .map(|draft| draft.raw_input_json)
            .collect()
    }

    #[test]
    fn a_damaged_page_costs_its_own_drafts_only_and_the_original_stays_as_it_was() {
        let folder = tempfile::tempdir().unwrap();
        let damaged = folder.path().join("zayavka.sqlite3");
        database_with_drafts(&damaged, 30);
        let lost = overwrite_leaf_holding(&damaged, "Черновик № 15 ");
        assert!(lost.contains(&15) && lost.len() < 5, "{lost:?}");
        let before = std::fs::read(&damaged).unwrap();
        assert!(matches!(
            Store::open(&damaged).and_then(|store| store.list_drafts(&DraftFilter::default())),
            Err(StoreError::Corrupt)
        ));
        let target = folder.path().join("recovered.sqlite3");
        let recovery = Store::recover_into(&damaged, &target).unwrap();
        assert_eq!(
            std::fs::read(&damaged).unwrap(),
            before,
            "the original is untouched"
        );
        assert!(recovery.damaged_tables.contains(&"drafts".to_owned()));
        let recovered = Store::open(&target).unwrap();
        let texts = descriptions(&recovered);
        assert_eq!(texts.len() as u64, recovery.drafts);
        // Every draft but those on the damaged page comes through whole, with its version.
        assert_eq!(texts.len(), 30 - lost.len());
        for number in 1..=30 {
            if lost.contains(&number) {
                assert!(
                    !texts
                        .iter()
                        .any(|t| t.contains(&format!("Черновик № {number} ")))
                );
                continue;
            }
            let expected = serde_json::json!({ "description": description(number) }).to_string();
            let found = recovered
                .list_drafts(&DraftFilter::default())
                .unwrap()
                .into_iter()
                .find(|draft| draft.raw_input_json == expected)
                .unwrap_or_else(|| panic!("draft {number} came through"));
            let draft = recovered.get_draft(found.id).unwrap().unwrap();
            assert_eq!(
                draft.versions.len(),
                1,
                "draft {number}'s version came along"
            );
        }
        // The index was rebuilt from what came through.
        assert_eq!(
            recovered.search_drafts("черновик", 100).unwrap().len(),
            texts.len()
        );
        let check: String = recovered
            .conn
            .query_row("PRAGMA integrity_check", [], |row| row.get(0))
            .unwrap();
        assert_eq!(check, "ok");
    }

    #[test]
    fn a_sound_database_comes_through_whole() {
        let folder = tempfile::tempdir().unwrap();
        let source = folder.path().join("zayavka.sqlite3");
        database_with_drafts(&source, 5);
        let target = folder.path().join("copy.sqlite3");
        let recovery = Store::recover_into(&source, &target).unwrap();
        assert_eq!((recovery.drafts, recovery.damaged_tables.len()), (5, 0));
        assert_eq!(
            descriptions(&Store::open(&target).unwrap()),
            descriptions(&Store::open(&source).unwrap())
        );
    }

    #[test]
    fn recovery_refuses_what_it_cannot_use_and_leaves_no_target() {
        let folder = tempfile::tempdir().unwrap();
        let target = folder.path().join("recovered.sqlite3");
        let missing = folder.path().join("missing.sqlite3");
        assert!(matches!(
            Store::recover_into(&missing, &target),
            Err(StoreError::NoDatabase { .. })
        ));
        let text = folder.path().join("text.sqlite3");
        std::fs::write(&text, "не база данных\n".repeat(500)).unwrap();
        assert!(matches!(
            Store::recover_into(&text, &target),
            Err(StoreError::NotOurDatabase { .. })
        ));
        assert!(!target.exists());
        let newer = folder.path().join("newer.sqlite3");
        database_with_drafts(&newer, 1);
        rusqlite::Connection::open(&newer)
            .unwrap()
            .pragma_update(None, "user_version", 999)
            .unwrap();
        assert!(matches!(
            Store::recover_into(&newer, &target),
            Err(StoreError::NewerSchema { found: 999, .. })
        ));
        assert!(!target.exists());
        std::fs::write(&target, "занято").unwrap();
        assert!(matches!(
            Store::recover_into(&newer, &target),
            Err(StoreError::RecoverTargetExists { .. })
        ));
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "занято");
    }
}
