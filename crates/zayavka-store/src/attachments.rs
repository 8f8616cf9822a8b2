//! Photos attached to a draft: adding them all or none, listing, reading their bytes and
//! removing one (ADR 18). A photo has a role (issue 30): evidence of the problem, printed with
//! the request and frozen once the draft is filed, or proof of filing, or the answer's pages;
//! each role is numbered on its own.
//!
//! The store keeps whatever bytes the engine hands it; removing the metadata and checking the
//! image happen before, in the engine. A photo is deleted like the draft's text: `secure_delete`
//! zeroes its pages, and the write-ahead log is emptied afterwards.

use rusqlite::{Row, Transaction, params};

use crate::audit::{self, Event, unknown_code};
use crate::columns::{now_text, parse_timestamp, sha256_hex_bytes};
use crate::drafts::outcome_of;
use crate::error::StoreError;
use crate::faults;
use crate::model::{
    AttachmentId, AttachmentRole, AuditKind, DraftId, NewAttachment, RemovedAttachment,
    StoredAttachment,
};
use crate::store::Store;

/// The media types the table's CHECK allows.
const MEDIA_TYPES: [&str; 2] = ["image/jpeg", "image/png"];

/// The columns [`attachment_from_row`] reads, without the bytes, numbered in attaching order.
const COLUMNS: &str = "id, draft_id, created_at, media_type, width, height, byte_size, sha256, \
     row_number() OVER (ORDER BY id), role";

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
        role: {
            let code: String = row.get(9)?;
            AttachmentRole::from_code(&code).ok_or_else(|| unknown_code(9, &code))?
        },
    })
}

fn list_in(
    tx: &Transaction<'_>,
    draft_id: DraftId,
    role: AttachmentRole,
) -> Result<Vec<StoredAttachment>, StoreError> {
    let mut statement = tx.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM attachments WHERE draft_id = ?1 AND role = ?2 ORDER BY id"
    ))?;
    let attachments = statement
        .query_map(params![draft_id.get(), role.code()], attachment_from_row)?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(attachments)
}

/// Refuses to change a filed draft's evidence: the company has those photos as they were.
fn check_evidence_open(
    tx: &Transaction<'_>,
    draft_id: DraftId,
    role: AttachmentRole,
) -> Result<(), StoreError> {
    if role == AttachmentRole::Evidence && crate::drafts::is_filed(tx, draft_id)? {
        return Err(StoreError::DraftFiled(draft_id));
    }
    Ok(())
}

/// The audit detail naming an attachment: a code, so the log's CHECK takes it.
fn detail(id: AttachmentId) -> String {
    format!("attachment_{}", id.get())
}

impl Store {
    /// Attaches photos of the problem to a draft: [`Store::add_attachments_as`] with
    /// [`AttachmentRole::Evidence`].
    pub fn add_attachments(
        &self,
        draft_id: DraftId,
        new: &[NewAttachment],
        limit: u32,
    ) -> Result<Vec<StoredAttachment>, StoreError> {
        self.add_attachments_as(draft_id, AttachmentRole::Evidence, new, limit)
    }

    /// Attaches photos in a role to a draft, all in one transaction: either every one is
    /// stored or none is. A draft may hold at most `limit` photos of the role; the count is
    /// checked under the write lock, so two programs attaching at once cannot pass it
    /// together. Evidence cannot be added to a filed draft ([`StoreError::DraftFiled`]).
    /// Returns the draft's whole list of the role afterwards.
    pub fn add_attachments_as(
        &self,
        draft_id: DraftId,
        role: AttachmentRole,
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
        check_evidence_open(&tx, draft_id, role)?;
        let existing: u32 = tx.query_row(
            "SELECT count(*) FROM attachments WHERE draft_id = ?1 AND role = ?2",
            params![draft_id.get(), role.code()],
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
                                          byte_size, sha256, bytes, role)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
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
                role.code(),
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
        let list = list_in(&tx, draft_id, role)?;
        Store::commit(tx, "draft_attach")?;
        Ok(list)
    }

    /// The photos of the problem attached to a draft in attaching order, without their bytes.
    pub fn attachments(&self, draft_id: DraftId) -> Result<Vec<StoredAttachment>, StoreError> {
        self.attachments_as(draft_id, AttachmentRole::Evidence)
    }

    /// The photos of a role attached to a draft in attaching order, without their bytes.
    pub fn attachments_as(
        &self,
        draft_id: DraftId,
        role: AttachmentRole,
    ) -> Result<Vec<StoredAttachment>, StoreError> {
        let tx = self.read()?;
        outcome_of(&tx, draft_id)?;
        list_in(&tx, draft_id, role)
    }

    /// The photos of the problem with their stored bytes, in attaching order, read in one
    /// snapshot.
    pub fn attachments_with_bytes(
        &self,
        draft_id: DraftId,
    ) -> Result<Vec<(StoredAttachment, Vec<u8>)>, StoreError> {
        self.attachments_with_bytes_as(draft_id, AttachmentRole::Evidence)
    }

    /// The photos of a role with their stored bytes, in attaching order, read in one snapshot.
    pub fn attachments_with_bytes_as(
        &self,
        draft_id: DraftId,
        role: AttachmentRole,
    ) -> Result<Vec<(StoredAttachment, Vec<u8>)>, StoreError> {
        let tx = self.read()?;
        outcome_of(&tx, draft_id)?;
        let list = list_in(&tx, draft_id, role)?;
        let mut statement = tx.prepare_cached("SELECT bytes FROM attachments WHERE id = ?1")?;
        let mut photos = Vec::with_capacity(list.len());
        for attachment in list {
            let bytes: Vec<u8> = statement.query_row([attachment.id.get()], |row| row.get(0))?;
            photos.push((attachment, bytes));
        }
        drop(statement);
        Ok(photos)
    }

    /// Removes the photo of the problem with this number from a draft:
    /// [`Store::remove_attachment_as`] with [`AttachmentRole::Evidence`].
    pub fn remove_attachment(
        &self,
        draft_id: DraftId,
        number: u32,
    ) -> Result<RemovedAttachment, StoreError> {
        self.remove_attachment_as(draft_id, AttachmentRole::Evidence, number)
    }

    /// Removes the photo of a role with this number from a draft; the numbers after it close
    /// up. Its bytes leave the database file and, when no other connection reads an older
    /// snapshot, the write-ahead log too; the audit log keeps its id and hash. A filed draft's
    /// evidence stays ([`StoreError::DraftFiled`]).
    pub fn remove_attachment_as(
        &self,
        draft_id: DraftId,
        role: AttachmentRole,
        number: u32,
    ) -> Result<RemovedAttachment, StoreError> {
        let tx = self.write()?;
        outcome_of(&tx, draft_id)?;
        check_evidence_open(&tx, draft_id, role)?;
        let removed = list_in(&tx, draft_id, role)?
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
