//! Versioned schema migrations over `PRAGMA user_version` (ADR 9).
//!
//! Migration `n` (counting from 1) takes the schema from version `n - 1` to `n`. A released
//! migration never changes; [`tests::released_migrations_never_change`] pins their hashes.

use std::path::Path;

use rusqlite::{Connection, Transaction, TransactionBehavior, params};

use crate::columns::input_key;
use crate::error::StoreError;

/// The migrations in order; the schema version is their count.
const MIGRATIONS: &[&str] = &[
    include_str!("migrations/0001_initial.sql"),
    include_str!("migrations/0002_record_pieces.sql"),
    include_str!("migrations/0003_attachments.sql"),
    include_str!("migrations/0004_batch_identity.sql"),
    include_str!("migrations/0005_eval_runs.sql"),
    include_str!("migrations/0006_cases.sql"),
];

/// The schema version this code writes and reads.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

/// The `application_id` the first migration sets ("ZAYV").
const APPLICATION_ID: i64 = 0x5A41_5956;

pub(crate) fn user_version(conn: &Connection) -> Result<u32, StoreError> {
    let version: i64 = conn.query_row("PRAGMA user_version", [], |row| row.get(0))?;
    // A negative version is nothing this program wrote.
    Ok(u32::try_from(version).unwrap_or(u32::MAX))
}

/// Refuses, by reading only, a database this code must not touch: one from a newer version, or
/// another program's.
pub(crate) fn check_version(conn: &Connection, path: &Path) -> Result<(), StoreError> {
    let version = user_version(conn)?;
    if version > SCHEMA_VERSION {
        return Err(StoreError::NewerSchema {
            found: version,
            supported: SCHEMA_VERSION,
        });
    }
    let application_id: i64 = conn.query_row("PRAGMA application_id", [], |row| row.get(0))?;
    let foreign = if version == 0 {
        // Version 0 is an empty file to set up; a file with tables of its own is someone else's.
        let objects: i64 =
            conn.query_row("SELECT count(*) FROM sqlite_schema", [], |row| row.get(0))?;
        objects > 0 || application_id != 0
    } else {
        application_id != APPLICATION_ID
    };
    if foreign {
        return Err(StoreError::NotOurDatabase {
            path: path.to_owned(),
        });
    }
    Ok(())
}

/// Applies the missing migrations in one `BEGIN IMMEDIATE` transaction.
///
/// The version is read again inside the transaction, after the write lock is taken, so that two
/// processes opening a new database at once never both apply the same migration: the second
/// waits, then finds nothing to do.
pub(crate) fn migrate(conn: &mut Connection, path: &Path) -> Result<(), StoreError> {
    if user_version(conn)? == SCHEMA_VERSION {
        return Ok(());
    }
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    check_version(&tx, path)?;
    let current = user_version(&tx)?;
    apply(&tx, current, SCHEMA_VERSION)?;
    tx.commit()?;
    Ok(())
}

/// Brings a new, empty database to schema `version`: how the schema check knows, object by
/// object, what each version holds (issue 37).
pub(crate) fn apply_up_to(conn: &mut Connection, version: u32) -> Result<(), StoreError> {
    let tx = conn.transaction()?;
    let current = user_version(&tx)?;
    apply(&tx, current, version)?;
    tx.commit()?;
    Ok(())
}

/// Applies migrations `from + 1` to `to` and sets the version to `to`.
fn apply(tx: &Transaction<'_>, from: u32, to: u32) -> Result<(), StoreError> {
    for (index, migration) in MIGRATIONS
        .iter()
        .enumerate()
        .take(to as usize)
        .skip(from as usize)
    {
        tx.execute_batch(migration)?;
        if index + 1 == 2 {
            // Version 2 stores the records' repeated parts once; the records version 1 stored
            // whole are split here, in the same transaction (the SQL cannot hash them).
            crate::pieces::split_existing(tx)?;
        }
        if index + 1 == 4 {
            // Version 4 recognises batch rows by their input; the key is a hash the SQL cannot
            // compute, so the rows stored so far get theirs here.
            fill_input_keys(tx)?;
        }
    }
    tx.pragma_update(None, "user_version", to)?;
    Ok(())
}

/// Gives every row stored before version 4 its input key (the migration's step in Rust).
fn fill_input_keys(tx: &Transaction<'_>) -> Result<(), StoreError> {
    let rows: Vec<(String, u32, String, Option<String>)> = tx
        .prepare(
            "SELECT batch_id, row_number, raw_input_json, checked_input_json FROM batch_rows
             WHERE input_key IS NULL",
        )?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<Result<_, _>>()?;
    let mut update =
        tx.prepare("UPDATE batch_rows SET input_key = ?3 WHERE batch_id = ?1 AND row_number = ?2")?;
    for (batch_id, row_number, raw, checked) in rows {
        let key = input_key(checked.as_deref().unwrap_or(&raw));
        update.execute(params![batch_id, row_number, key])?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn released_migrations_never_change() {
        // A released migration is part of every database made with it: changing it would give
        // two databases of the same version different schemas. Add a new migration instead.
        let pinned = [
            "16cdebd3918e25c84108f050b782ee3de5c64cdb4e8bd96ef03adc44f100cdf7",
            "22bdfadaba69da7b860a174c278c880ae79ed287a2e077624faa561597156d3c",
            "57de545d55ae002da4f9ab5154f3d2c6f7f66fd26426e530afebf96be58c3ebc",
            "e45d56322974c7544b5f5c11cfa3b8e84550e7a53a13889023805b385c197a9b",
            "875b5f1e486af37e224c5d5ff1ca5ed4dd6f7b021a2c3aa1eb334239938935e8",
            "85e5a822717cbb9f555a07302253a7fb97850c90395a64861952a8c72aa49de2",
        ];
        assert_eq!(
            MIGRATIONS.len(),
            pinned.len(),
            "pin the new migration's hash"
        );
        for (index, (migration, hash)) in MIGRATIONS.iter().zip(pinned).enumerate() {
            assert_eq!(
                crate::columns::sha256_hex(migration),
                hash,
                "migration {} changed",
                index + 1
            );
        }
    }

    #[test]
    fn the_first_migration_sets_the_application_id() {
        let mut conn = Connection::open_in_memory().unwrap();
        migrate(&mut conn, Path::new(":memory:")).unwrap();
        let id: i64 = conn
            .query_row("PRAGMA application_id", [], |row| row.get(0))
            .unwrap();
        assert_eq!(id, APPLICATION_ID);
        assert_eq!(user_version(&conn).unwrap(), SCHEMA_VERSION);
    }
}

#[cfg(test)]
mod version_2_tests {
    use super::*;
    use crate::{DraftId, Store};

    #[test]
    fn version_1_records_are_split_by_the_migration_and_read_back_unchanged() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("z.sqlite3");
        let prompt = "Системная подсказка. ".repeat(200);
        let record = serde_json::json!({
            "messages": [
                {"role": "system", "content": prompt},
                {"role": "user", "content": "Не горит свет"}
            ],
            "responses": []
        })
        .to_string();
        {
            // A database as version 1 left it, with two records of the same prompt.
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(MIGRATIONS[0]).unwrap();
            conn.pragma_update(None, "user_version", 1).unwrap();
            for id in [1, 2] {
                conn.execute(
                    "INSERT INTO drafts (id, created_at, updated_at, raw_input_json, outcome)
                     VALUES (?1, '2026-12-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z', '{}',
                             'ready')",
                    [id],
                )
                .unwrap();
                conn.execute(
                    "INSERT INTO context_records (draft_id, created_at, format_version,
                         record_json, app_version, prompt_version, prompt_sha256, schema_id,
                         schema_version, schema_sha256, legal_catalogue_version,
                         provider_profile, provider_host, model)
                     VALUES (?1, '2026-12-01T00:00:00.000Z', 1, ?2, '0.1.0', 'v1', 'p', 's',
                             1, 's', 'c', 'default', 'h', 'm')",
                    rusqlite::params![id, record],
                )
                .unwrap();
            }
        }
        let store = Store::open(&path).unwrap();
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
        let pieces: i64 = store
            .conn
            .query_row("SELECT count(*) FROM record_pieces", [], |row| row.get(0))
            .unwrap();
        assert_eq!(pieces, 1);
        let stored: String = store
            .conn
            .query_row(
                "SELECT record_json FROM context_records WHERE draft_id = 1",
                [],
                |row| row.get(0),
            )
            .unwrap();
        assert!(stored.len() < 400, "{stored}");
        for id in [1, 2] {
            let draft = store.get_draft(DraftId::new(id).unwrap()).unwrap().unwrap();
            assert_eq!(draft.records[0].record.record_json, record);
        }
        // Deleting one draft keeps the piece the other uses; deleting both removes it.
        store.delete_draft(DraftId::new(1).unwrap()).unwrap();
        let draft = store.get_draft(DraftId::new(2).unwrap()).unwrap().unwrap();
        assert_eq!(draft.records[0].record.record_json, record);
        store.delete_draft(DraftId::new(2).unwrap()).unwrap();
        let pieces: i64 = store
            .conn
            .query_row("SELECT count(*) FROM record_pieces", [], |row| row.get(0))
            .unwrap();
        assert_eq!(pieces, 0);
    }
}

#[cfg(test)]
mod version_3_tests {
    use super::*;
    use crate::Store;

    #[test]
    fn the_rebuilt_audit_log_keeps_every_event_its_counter_and_its_triggers() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("z.sqlite3");
        {
            // A database as version 2 left it, with three events.
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(MIGRATIONS[0]).unwrap();
            conn.execute_batch(MIGRATIONS[1]).unwrap();
            conn.pragma_update(None, "user_version", 2).unwrap();
            for draft in [1, 2, 3] {
                conn.execute(
                    "INSERT INTO audit_events (at, kind, draft_id)
                     VALUES ('2026-12-01T00:00:00.000Z', 'draft_created', ?1)",
                    [draft],
                )
                .unwrap();
            }
        }
        let store = Store::open(&path).unwrap();
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
        let events = store.audit_events(None).unwrap();
        assert_eq!(events.iter().map(|e| e.seq).collect::<Vec<_>>(), [1, 2, 3]);
        let id = store
            .create_draft(&crate::NewDraft {
                raw_input_json: "{}".to_owned(),
                checked_input_json: None,
            })
            .unwrap();
        let latest = store.audit_events(Some(id)).unwrap().pop().unwrap();
        assert_eq!(latest.seq, 4, "the counter continues");
        for statement in [
            "UPDATE audit_events SET kind = 'draft_deleted'",
            "DELETE FROM audit_events",
        ] {
            assert!(store.conn.execute(statement, []).is_err(), "{statement}");
        }
        assert_eq!(store.audit_events(None).unwrap().len(), 4);
    }
}
