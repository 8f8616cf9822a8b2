//! Photos attached to a draft: adding them all or none, listing, reading their bytes and
//! removing one (ADR 18).
//!
//! The store keeps whatever bytes the engine hands it; removing the metadata and checking the
//! image happen before, in the engine. A photo is deleted like the draft's text: `secure_delete`
//! zeroes its pages, and the write-ahead log is emptied afterwards.

use rusqlite::{Row, Transaction, params};

use crate::audit::{self, Event};
use crate::columns::{now_text, parse_timestamp, sha256_hex_bytes};
use crate::drafts::outcome_of;
use crate::error::StoreError;
use crate::faults;
use crate::model::{
    AttachmentId, AuditKind, DraftId, NewAttachment, RemovedAttachment, StoredAttachment,
};
use crate::store::Store;

/// The media types the table's CHECK allows.
const MEDIA_TYPES: [&str; 2] = ["image/jpeg", "image/png"];

/// The columns [`attachment_from_row`] reads, without the bytes, numbered in attaching order.
const COLUMNS: &str = "id, draft_id, created_at, media_type, width, height, byte_size, sha256, \
     row_number() OVER (ORDER BY id)";

fn attachment_from_row(row: &Row<'_>) -> rusqlite::Result<StoredAttachment> {
    Ok(StoredAttachment {
        id: AttachmentId(row.get(0)?),
        draft_id: row.get(1)?,
        created_at: parse_timestamp(&row.get::<_, String>(2)?)?,
        media_type: row.get(3)?,
        width: row.get(4)?,
        height: row.get(5)?,
        byte_size: u64::try_from(row.get::<_, i64>(6)?).unwrap_or(0),
        sha256: row.get(7)?,
        number: row.get(8)?,
    })
}

fn list_in(tx: &Transaction<'_>, draft_id: DraftId) -> Result<Vec<StoredAttachment>, StoreError> {
    let mut statement = tx.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM attachments WHERE draft_id = ?1 ORDER BY id"
    ))?;
    let attachments = statement
        .query_map([draft_id.get()], attachment_from_row)?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(attachments)
}

/// The audit detail naming an attachment: a code, so the log's CHECK takes it.
fn detail(id: AttachmentId) -> String {
    format!("attachment_{}", id.get())
}

impl Store {
    /// Attaches photos to a draft, all in one transaction: either every one is stored or none
    /// is. A draft may hold at most `limit` photos; the count is checked under the write lock,
    /// so two programs attaching at once cannot pass it together. Returns the draft's whole
    /// list afterwards.
    pub fn add_attachments(
        &self,
        draft_id: DraftId,
        new: &[NewAttachment],
        limit: u32,
    ) -> Result<Vec<StoredAttachment>, StoreError> {
        for attachment in new {
            if !MEDIA_TYPES.contains(&attachment.media_type.as_str()) {
                return Err(StoreError::InvalidCode {
                    field: "media_type",
                });
            }
        }
        let tx = self.write()?;
        outcome_of(&tx, draft_id)?;
        let existing: u32 = tx.query_row(
            "SELECT count(*) FROM attachments WHERE draft_id = ?1",
            [draft_id.get()],
            |row| row.get(0),
        )?;
        let adding = u32::try_from(new.len()).unwrap_or(u32::MAX);
        if existing.saturating_add(adding) > limit {
            return Err(StoreError::TooManyAttachments {
                draft_id,
                existing,
                adding,
                limit,
            });
        }
        let now = now_text();
        for attachment in new {
            let sha256 = sha256_hex_bytes(&attachment.bytes);
            tx.prepare_cached(
                "INSERT INTO attachments (draft_id, created_at, media_type, width, height,
                                          byte_size, sha256, bytes)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )?
            .execute(params![
                draft_id.get(),
                now,
                attachment.media_type,
                attachment.width,
                attachment.height,
                attachment.bytes.len() as i64,
                sha256,
                attachment.bytes,
            ])?;
            let id = AttachmentId(tx.last_insert_rowid());
            faults::point("draft_attach", "photo");
            audit::record(
                &tx,
                AuditKind::AttachmentAdded,
                Event {
                    draft_id: Some(draft_id),
                    sha256: Some(sha256),
                    detail: Some(&detail(id)),
                    ..Event::default()
                },
            )?;
            faults::point("draft_attach", "audit");
        }
        let list = list_in(&tx, draft_id)?;
        Store::commit(tx, "draft_attach")?;
        Ok(list)
    }

    /// The photos of a draft in attaching order, without their bytes.
    pub fn attachments(&self, draft_id: DraftId) -> Result<Vec<StoredAttachment>, StoreError> {
        let tx = self.read()?;
        outcome_of(&tx, draft_id)?;
        list_in(&tx, draft_id)
    }

    /// The photos of a draft with their stored bytes, in attaching order, read in one snapshot.
    pub fn attachments_with_bytes(
        &self,
        draft_id: DraftId,
    ) -> Result<Vec<(StoredAttachment, Vec<u8>)>, StoreError> {
        let tx = self.read()?;
        outcome_of(&tx, draft_id)?;
        let list = list_in(&tx, draft_id)?;
        let mut statement = tx.prepare_cached("SELECT bytes FROM attachments WHERE id = ?1")?;
        let mut photos = Vec::with_capacity(list.len());
        for attachment in list {
            let bytes: Vec<u8> = statement.query_row([attachment.id.get()], |row| row.get(0))?;
            photos.push((attachment, bytes));
        }
        drop(statement);
        Ok(photos)
    }

    /// Removes the photo with this number from a draft; the numbers after it close up. Its
    /// bytes leave the database file and, when no other connection reads an older snapshot,
    /// the write-ahead log too; the audit log keeps its id and hash.
    pub fn remove_attachment(
        &self,
        draft_id: DraftId,
        number: u32,
    ) -> Result<RemovedAttachment, StoreError> {
        let tx = self.write()?;
        outcome_of(&tx, draft_id)?;
        let removed = list_in(&tx, draft_id)?
            .into_iter()
            .find(|attachment| attachment.number == number)
            .ok_or(StoreError::AttachmentNotFound { draft_id, number })?;
        tx.execute("DELETE FROM attachments WHERE id = ?1", [removed.id.get()])?;
        audit::record(
            &tx,
            AuditKind::AttachmentRemoved,
            Event {
                draft_id: Some(draft_id),
                sha256: Some(removed.sha256.clone()),
                detail: Some(&detail(removed.id)),
                ..Event::default()
            },
        )?;
        Store::commit(tx, "attachment_remove")?;
        Ok(RemovedAttachment {
            removed,
            log_cleared: self.checkpoint()?,
        })
    }
}
