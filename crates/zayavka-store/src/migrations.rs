//! Versioned schema migrations over `PRAGMA user_version` (ADR 9).
//!
//! Migration `n` (counting from 1) takes the schema from version `n - 1` to `n`. A released
//! migration never changes; [`tests::released_migrations_never_change`] pins their hashes.

use std::path::Path;

use rusqlite::{Connection, TransactionBehavior};

use crate::error::StoreError;

/// The migrations in order; the schema version is their count.
const MIGRATIONS: &[&str] = &[include_str!("migrations/0001_initial.sql")];

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
    for migration in &MIGRATIONS[current as usize..] {
        tx.execute_batch(migration)?;
    }
    tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
    tx.commit()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn released_migrations_never_change() {
        // A released migration is part of every database made with it: changing it would give
        // two databases of the same version different schemas. Add a new migration instead.
        let pinned = ["16cdebd3918e25c84108f050b782ee3de5c64cdb4e8bd96ef03adc44f100cdf7"];
        assert_eq!(
            MIGRATIONS.len(),
            pinned.len(),
            "pin the new migration's hash"
        );
        for (index, (migration, hash)) in MIGRATIONS.iter().zip(pinned).enumerate() {
            assert_eq!(
                crate::store::sha256_hex(migration),
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
