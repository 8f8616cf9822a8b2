//! What happened after a draft was filed (issue 30, ADR 34): the filing, the answer, the
//! closing, and the drafts written after another (a correction, a repeat request, a complaint).
//!
//! Every change is one transaction with its audit event, like the rest of the store; dates go
//! in and out as days. The store keeps the dates in order — no delivery, answer or closing
//! before the filing — whatever the front end checked first, because another program may have
//! changed the case in between. Whether a date lies in the future, or before the draft
//! existed, depends on today and the resident's time zone: the engine checks that.

use jiff::civil::Date;
use rusqlite::{OptionalExtension, Row, Transaction, params};

use crate::audit::{self, Event, unknown_code};
use crate::columns::{now_text, parse_timestamp};
use crate::drafts::{
    check_code, check_finished, finish_in, insert_pending, insert_version, is_filed, outcome_of,
};
use crate::error::StoreError;
use crate::faults;
use crate::model::{
    Answer, AnswerResult, AuditKind, Case, DraftId, DraftOutcome, Filing, FilingMethod,
    FinishedDraft, FollowKind, FollowLink, NewDraft, NewVersion,
};
use crate::store::Store;

/// The columns [`case_from_row`] reads, from `cases` joined with the draft's link.
const COLUMNS: &str = "cases.draft_id, cases.filed_on, cases.method, cases.number, \
     cases.addressee, cases.delivered_on, cases.answered_on, cases.result, cases.closed_on, \
     cases.created_at, cases.updated_at, drafts.follows, drafts.follow_kind";

fn day(text: &str, column: usize) -> rusqlite::Result<Date> {
    text.parse::<Date>().map_err(|error| {
        rusqlite::Error::FromSqlConversionFailure(
            column,
            rusqlite::types::Type::Text,
            Box::new(error),
        )
    })
}

fn optional_day(row: &Row<'_>, column: usize) -> rusqlite::Result<Option<Date>> {
    row.get::<_, Option<String>>(column)?
        .map(|text| day(&text, column))
        .transpose()
}

fn case_from_row(row: &Row<'_>) -> rusqlite::Result<Case> {
    let method: String = row.get(2)?;
    let result: Option<String> = row.get(7)?;
    let answer = match (optional_day(row, 6)?, result) {
        (Some(answered_on), Some(result)) => Some(Answer {
            answered_on,
            result: AnswerResult::from_code(&result).ok_or_else(|| unknown_code(7, &result))?,
        }),
        _ => None,
    };
    let follow_kind: Option<String> = row.get(12)?;
    let follows = follow_kind
        .map(|kind| {
            Ok::<_, rusqlite::Error>(FollowLink {
                draft_id: row.get(11)?,
                kind: FollowKind::from_code(&kind).ok_or_else(|| unknown_code(12, &kind))?,
            })
        })
        .transpose()?;
    Ok(Case {
        draft_id: row.get(0)?,
        filing: Filing {
            filed_on: day(&row.get::<_, String>(1)?, 1)?,
            method: FilingMethod::from_code(&method).ok_or_else(|| unknown_code(2, &method))?,
            number: row.get(3)?,
            addressee: row.get(4)?,
            delivered_on: optional_day(row, 5)?,
        },
        answer,
        closed_on: optional_day(row, 8)?,
        follows,
        created_at: parse_timestamp(&row.get::<_, String>(9)?)?,
        updated_at: parse_timestamp(&row.get::<_, String>(10)?)?,
    })
}

/// The case of a draft, read in the caller's transaction.
fn case_in(tx: &Transaction<'_>, draft_id: DraftId) -> Result<Option<Case>, StoreError> {
    let case = tx
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM cases JOIN drafts ON drafts.id = cases.draft_id
             WHERE cases.draft_id = ?1"
        ))?
        .query_row([draft_id.get()], case_from_row)
        .optional()?;
    Ok(case)
}

/// Refuses a date before the filing.
fn not_before_filing(
    draft_id: DraftId,
    filed_on: Date,
    later: &'static str,
    later_on: Option<Date>,
) -> Result<(), StoreError> {
    match later_on {
        Some(later_on) if later_on < filed_on => Err(StoreError::CaseDatesOutOfOrder {
            draft_id,
            earlier: "filing",
            earlier_on: filed_on,
            later,
            later_on,
        }),
        _ => Ok(()),
    }
}

/// Refuses an empty or whitespace-only optional text, which the table's CHECK would refuse
/// with a less useful error; the engine trims and drops empty texts before.
fn check_text(field: &'static str, text: Option<&str>) -> Result<(), StoreError> {
    if text.is_some_and(|text| text.trim().is_empty()) {
        return Err(StoreError::InvalidCode { field });
    }
    Ok(())
}

/// Marks one ready draft filed, or changes its filing's facts, in the caller's transaction.
fn file_in(tx: &Transaction<'_>, draft_id: DraftId, filing: &Filing) -> Result<Case, StoreError> {
    check_text("number", filing.number.as_deref())?;
    check_text("addressee", filing.addressee.as_deref())?;
    let outcome = outcome_of(tx, draft_id)?;
    if outcome != DraftOutcome::Ready {
        return Err(StoreError::DraftNotReady {
            draft_id,
            outcome: outcome.code(),
        });
    }
    let existing = case_in(tx, draft_id)?;
    not_before_filing(draft_id, filing.filed_on, "delivery", filing.delivered_on)?;
    if let Some(existing) = &existing {
        let answered_on = existing.answer.map(|answer| answer.answered_on);
        not_before_filing(draft_id, filing.filed_on, "answer", answered_on)?;
        not_before_filing(draft_id, filing.filed_on, "closing", existing.closed_on)?;
    }
    let now = now_text();
    tx.prepare_cached(
        "INSERT INTO cases (draft_id, filed_on, method, number, addressee, delivered_on,
                            created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)
         ON CONFLICT (draft_id) DO UPDATE SET
             filed_on = excluded.filed_on, method = excluded.method,
             number = excluded.number, addressee = excluded.addressee,
             delivered_on = excluded.delivered_on, updated_at = excluded.updated_at",
    )?
    .execute(params![
        draft_id.get(),
        filing.filed_on.to_string(),
        filing.method.code(),
        filing.number,
        filing.addressee,
        filing.delivered_on.map(|day| day.to_string()),
        now,
    ])?;
    faults::point("case_file", "row");
    let kind = if existing.is_some() {
        AuditKind::FilingAmended
    } else {
        AuditKind::DraftFiled
    };
    audit::record(
        tx,
        kind,
        Event {
            draft_id: Some(draft_id),
            detail: Some(filing.method.code()),
            ..Event::default()
        },
    )?;
    case_in(tx, draft_id)?.ok_or(StoreError::NotFiled(draft_id))
}

/// One request filed before Zayavka, as [`Store::bring_in_all`] records it.
#[derive(Debug, Clone, Copy)]
pub struct BroughtIn<'a> {
    /// The input it was written from.
    pub draft: &'a NewDraft,
    /// The request written from the resident's words.
    pub finished: &'a FinishedDraft,
    /// Its text exactly as filed, by [`crate::BROUGHT_IN_AUTHOR`].
    pub text: &'a NewVersion,
    /// Its filing.
    pub filing: &'a Filing,
}

impl Store {
    /// Marks a ready draft filed, or changes the facts of its filing when it already is one
    /// ([`AuditKind::FilingAmended`]). The draft's text and its photos of the problem no longer
    /// change after this. Returns the case as stored.
    pub fn record_filing(&self, draft_id: DraftId, filing: &Filing) -> Result<Case, StoreError> {
        let tx = self.write()?;
        let case = file_in(&tx, draft_id, filing)?;
        Store::commit(tx, "case_file")?;
        Ok(case)
    }

    /// Marks several ready drafts filed in one transaction — an activist's batch, filed on one
    /// day in one way: every one is marked, or none is. Returns their cases in the order given.
    pub fn record_filings(&self, filings: &[(DraftId, Filing)]) -> Result<Vec<Case>, StoreError> {
        let tx = self.write()?;
        let mut cases = Vec::with_capacity(filings.len());
        for (draft_id, filing) in filings {
            cases.push(file_in(&tx, *draft_id, filing)?);
        }
        Store::commit(tx, "case_file")?;
        Ok(cases)
    }

    /// Takes back a filing mark made by mistake: the case, its answer and the photos of the
    /// filing and of the answer are deleted (their bytes zeroed, as a deleted draft's are),
    /// and the draft can be changed again. The audit log keeps that it happened.
    pub fn withdraw_filing(&self, draft_id: DraftId) -> Result<(), StoreError> {
        let tx = self.write()?;
        outcome_of(&tx, draft_id)?;
        if !is_filed(&tx, draft_id)? {
            return Err(StoreError::NotFiled(draft_id));
        }
        tx.execute(
            "DELETE FROM attachments WHERE draft_id = ?1 AND role <> 'evidence'",
            [draft_id.get()],
        )?;
        tx.execute("DELETE FROM cases WHERE draft_id = ?1", [draft_id.get()])?;
        faults::point("case_withdraw", "row");
        audit::record(
            &tx,
            AuditKind::FilingWithdrawn,
            Event {
                draft_id: Some(draft_id),
                ..Event::default()
            },
        )?;
        Store::commit(tx, "case_withdraw")?;
        self.checkpoint()?;
        Ok(())
    }

    /// Records the answer to a filed draft, or replaces the one recorded before.
    pub fn record_answer(&self, draft_id: DraftId, answer: &Answer) -> Result<Case, StoreError> {
        let tx = self.write()?;
        outcome_of(&tx, draft_id)?;
        let case = case_in(&tx, draft_id)?.ok_or(StoreError::NotFiled(draft_id))?;
        not_before_filing(
            draft_id,
            case.filing.filed_on,
            "answer",
            Some(answer.answered_on),
        )?;
        tx.execute(
            "UPDATE cases SET answered_on = ?2, result = ?3, updated_at = ?4
             WHERE draft_id = ?1",
            params![
                draft_id.get(),
                answer.answered_on.to_string(),
                answer.result.code(),
                now_text()
            ],
        )?;
        faults::point("case_answer", "row");
        audit::record(
            &tx,
            AuditKind::AnswerRecorded,
            Event {
                draft_id: Some(draft_id),
                detail: Some(answer.result.code()),
                ..Event::default()
            },
        )?;
        let case = case_in(&tx, draft_id)?.ok_or(StoreError::NotFiled(draft_id))?;
        Store::commit(tx, "case_answer")?;
        Ok(case)
    }

    /// Closes a filed draft's case on `closed_on`, or opens it again with `None`.
    pub fn close_case(
        &self,
        draft_id: DraftId,
        closed_on: Option<Date>,
    ) -> Result<Case, StoreError> {
        let tx = self.write()?;
        outcome_of(&tx, draft_id)?;
        let case = case_in(&tx, draft_id)?.ok_or(StoreError::NotFiled(draft_id))?;
        not_before_filing(draft_id, case.filing.filed_on, "closing", closed_on)?;
        tx.execute(
            "UPDATE cases SET closed_on = ?2, updated_at = ?3 WHERE draft_id = ?1",
            params![
                draft_id.get(),
                closed_on.map(|day| day.to_string()),
                now_text()
            ],
        )?;
        faults::point("case_close", "row");
        let kind = if closed_on.is_some() {
            AuditKind::CaseClosed
        } else {
            AuditKind::CaseReopened
        };
        audit::record(
            &tx,
            kind,
            Event {
                draft_id: Some(draft_id),
                ..Event::default()
            },
        )?;
        let case = case_in(&tx, draft_id)?.ok_or(StoreError::NotFiled(draft_id))?;
        Store::commit(tx, "case_close")?;
        Ok(case)
    }

    /// The case of a draft: `None` when it is not filed, [`StoreError::DraftNotFound`] when
    /// there is no such draft.
    pub fn case(&self, draft_id: DraftId) -> Result<Option<Case>, StoreError> {
        let tx = self.read()?;
        outcome_of(&tx, draft_id)?;
        case_in(&tx, draft_id)
    }

    /// Every case, the earliest filing first.
    pub fn cases(&self) -> Result<Vec<Case>, StoreError> {
        let tx = self.read()?;
        let mut statement = tx.prepare_cached(&format!(
            "SELECT {COLUMNS} FROM cases JOIN drafts ON drafts.id = cases.draft_id
             ORDER BY filed_on, cases.draft_id"
        ))?;
        let cases = statement
            .query_map([], case_from_row)?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(cases)
    }

    /// Records that `draft_id` was written after `follows`, and how. The earlier draft must
    /// exist; the link stays, unset, if it is deleted later.
    pub fn link_follow_up(
        &self,
        draft_id: DraftId,
        follows: DraftId,
        kind: FollowKind,
    ) -> Result<(), StoreError> {
        let tx = self.write()?;
        outcome_of(&tx, draft_id)?;
        outcome_of(&tx, follows)?;
        tx.execute(
            "UPDATE drafts SET follows = ?2, follow_kind = ?3 WHERE id = ?1",
            params![draft_id.get(), follows.get(), kind.code()],
        )?;
        faults::point("follow_up_link", "row");
        audit::record(
            &tx,
            AuditKind::FollowUpCreated,
            Event {
                draft_id: Some(draft_id),
                detail: Some(kind.code()),
                ..Event::default()
            },
        )?;
        Store::commit(tx, "follow_up_link")?;
        Ok(())
    }

    /// A new draft to correct filed draft `id`, whose own text can no longer change: its
    /// input, its request, every version of the resident's and its photos of the problem copied
    /// in one transaction, linked as a [`FollowKind::Correction`]. The copy is not filed; the
    /// resident edits and files it. Returns its id.
    pub fn copy_for_correction(&self, id: DraftId) -> Result<DraftId, StoreError> {
        let tx = self.write()?;
        outcome_of(&tx, id)?;
        if !is_filed(&tx, id)? {
            return Err(StoreError::NotFiled(id));
        }
        let now = now_text();
        tx.execute(
            "INSERT INTO drafts (created_at, updated_at, raw_input_json, checked_input_json,
                                 outcome, reason, retryable, title, body, request_json,
                                 warnings_json, subject_module, legal_omission, model_used,
                                 follows, follow_kind, addressee)
             SELECT ?2, ?2, raw_input_json, checked_input_json, outcome, reason, retryable,
                    title, body, request_json, warnings_json, subject_module, legal_omission,
                    model_used, id, 'correction', addressee
             FROM drafts WHERE id = ?1",
            params![id.get(), now],
        )?;
        let rowid = tx.last_insert_rowid();
        let copy = DraftId::new(rowid).ok_or(rusqlite::Error::IntegralValueOutOfRange(0, rowid))?;
        faults::point("draft_correct", "row");
        tx.execute(
            "INSERT INTO draft_versions (draft_id, version, author, title, body, created_at)
             SELECT ?2, version, author, title, body, created_at FROM draft_versions
             WHERE draft_id = ?1",
            params![id.get(), copy.get()],
        )?;
        tx.execute(
            "INSERT INTO attachments (draft_id, created_at, media_type, width, height, byte_size,
                                      sha256, bytes, role)
             SELECT ?2, created_at, media_type, width, height, byte_size, sha256, bytes, role
             FROM attachments WHERE draft_id = ?1 AND role = 'evidence' ORDER BY id",
            params![id.get(), copy.get()],
        )?;
        faults::point("draft_correct", "copy");
        crate::search::refresh(&tx, copy)?;
        let raw: String = tx.query_row(
            "SELECT raw_input_json FROM drafts WHERE id = ?1",
            [copy.get()],
            |row| row.get(0),
        )?;
        for (kind, detail) in [
            (AuditKind::DraftCreated, None),
            (
                AuditKind::FollowUpCreated,
                Some(FollowKind::Correction.code()),
            ),
        ] {
            audit::record(
                &tx,
                kind,
                Event {
                    draft_id: Some(copy),
                    sha256: (kind == AuditKind::DraftCreated)
                        .then(|| crate::columns::sha256_hex(&raw)),
                    detail,
                    ..Event::default()
                },
            )?;
        }
        Store::commit(tx, "draft_correct")?;
        Ok(copy)
    }

    /// Stores a letter written after draft `follows` (a repeat request, a complaint) as a new
    /// ready draft linked to it, in one transaction: the input it was written from, the
    /// finished request, the link and the audit events are all there, or none is. Returns its
    /// id.
    pub fn create_follow_up(
        &self,
        follows: DraftId,
        kind: FollowKind,
        addressee: Option<&str>,
        draft: &NewDraft,
        finished: &FinishedDraft,
    ) -> Result<DraftId, StoreError> {
        check_finished(finished, None)?;
        check_text("addressee", addressee)?;
        let tx = self.write()?;
        outcome_of(&tx, follows)?;
        let id = insert_pending(&tx, draft, None)?;
        finish_in(&tx, id, finished, None, &[])?;
        tx.execute(
            "UPDATE drafts SET follows = ?2, follow_kind = ?3, addressee = ?4 WHERE id = ?1",
            params![id.get(), follows.get(), kind.code(), addressee],
        )?;
        faults::point("follow_up_create", "row");
        audit::record(
            &tx,
            AuditKind::FollowUpCreated,
            Event {
                draft_id: Some(id),
                detail: Some(kind.code()),
                ..Event::default()
            },
        )?;
        Store::commit(tx, "follow_up_create")?;
        Ok(id)
    }

    /// Records a request the resident filed before using Zayavka (issue 38) as a new draft that
    /// is filed already, in one transaction: the input, the finished request (written from the
    /// resident's own words, no model), the text exactly as it was filed as a version by
    /// [`crate::BROUGHT_IN_AUTHOR`], and the filing — all there, or none. Its filing day may precede
    /// the day it is recorded. Returns its id.
    pub fn bring_in(
        &self,
        draft: &NewDraft,
        finished: &FinishedDraft,
        text: &NewVersion,
        filing: &Filing,
    ) -> Result<DraftId, StoreError> {
        let ids = self.bring_in_all(&[BroughtIn {
            draft,
            finished,
            text,
            filing,
        }])?;
        Ok(ids[0])
    }

    /// [`Store::bring_in`] for several requests in one transaction — an activist's file of an
    /// entrance's requests (`batch add`): every one is recorded, or none is. Returns their ids
    /// in the order given.
    pub fn bring_in_all(&self, requests: &[BroughtIn<'_>]) -> Result<Vec<DraftId>, StoreError> {
        for request in requests {
            check_finished(request.finished, None)?;
            check_code("author", &request.text.author)?;
        }
        let tx = self.write()?;
        let mut ids = Vec::with_capacity(requests.len());
        for request in requests {
            let id = insert_pending(&tx, request.draft, None)?;
            finish_in(&tx, id, request.finished, None, &[])?;
            insert_version(&tx, id, request.text, "draft_bring_in")?;
            file_in(&tx, id, request.filing)?;
            faults::point("draft_bring_in", "filed");
            ids.push(id);
        }
        Store::commit(tx, "draft_bring_in")?;
        Ok(ids)
    }

    /// Whether a request filed before Zayavka with this text, filed on `filed_on`, is recorded
    /// already: how `batch add` run again on the same file records nothing twice.
    pub fn brought_in_exists(&self, body: &str, filed_on: Date) -> Result<bool, StoreError> {
        let found: Option<i64> = self
            .conn
            .query_row(
                "SELECT 1 FROM draft_versions AS v JOIN cases AS c ON c.draft_id = v.draft_id
                 WHERE v.author = ?1 AND v.body = ?2 AND c.filed_on = ?3 LIMIT 1",
                params![crate::BROUGHT_IN_AUTHOR, body, filed_on.to_string()],
                |row| row.get(0),
            )
            .optional()?;
        Ok(found.is_some())
    }

    /// The addressee draft `id` is written to when it is not the profile's company (a
    /// complaint's inspectorate).
    pub fn addressee(&self, id: DraftId) -> Result<Option<String>, StoreError> {
        let tx = self.read()?;
        outcome_of(&tx, id)?;
        let addressee = tx.query_row(
            "SELECT addressee FROM drafts WHERE id = ?1",
            [id.get()],
            |row| row.get(0),
        )?;
        Ok(addressee)
    }

    /// How `draft_id` follows another draft, when it does.
    pub fn follow_link(&self, draft_id: DraftId) -> Result<Option<FollowLink>, StoreError> {
        let tx = self.read()?;
        outcome_of(&tx, draft_id)?;
        let (follows, kind): (Option<DraftId>, Option<String>) = tx.query_row(
            "SELECT follows, follow_kind FROM drafts WHERE id = ?1",
            [draft_id.get()],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )?;
        kind.map(|kind| {
            Ok(FollowLink {
                draft_id: follows,
                kind: FollowKind::from_code(&kind).ok_or_else(|| unknown_code(1, &kind))?,
            })
        })
        .transpose()
    }

    /// The drafts written after `draft_id`, oldest first, with how each follows it.
    pub fn follow_ups(&self, draft_id: DraftId) -> Result<Vec<(DraftId, FollowKind)>, StoreError> {
        let tx = self.read()?;
        outcome_of(&tx, draft_id)?;
        let mut statement =
            tx.prepare_cached("SELECT id, follow_kind FROM drafts WHERE follows = ?1 ORDER BY id")?;
        let rows = statement
            .query_map([draft_id.get()], |row| {
                let kind: String = row.get(1)?;
                Ok((
                    row.get(0)?,
                    FollowKind::from_code(&kind).ok_or_else(|| unknown_code(1, &kind))?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }
}
