//! The drafts a resident and an auditor can trust: every draft run stored whatever its outcome,
//! the input committed before the model is called, and the stored drafts listed, searched,
//! shown, replayed, retried and deleted with no network. The SQL lives in `zayavka-store`; this
//! module maps the engine's typed values onto its plain ones.

use serde::Serialize;
use zayavka_core::{Outcome, RawInput, Request, ResidentInput};
use zayavka_store::{
    DraftFilter, DraftId, DraftOutcome, DraftSummary, Store, StoreError, StoredDraft,
};

use crate::draft::{ContextRecord, Replay, ReplayError};
use crate::paths::Paths;

/// One stored draft as front ends list it.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct DraftListItem {
    /// The id.
    pub id: i64,
    /// When it was created, RFC 3339.
    pub created_at: String,
    /// `pending`, `ready`, `needs_user`, `rejected`, `failed` or `invalid_input`.
    #[cfg_attr(feature = "ts", ts(as = "zayavka_store::DraftOutcome"))]
    pub outcome: &'static str,
    /// The reason code.
    pub reason: Option<String>,
    /// The request's title, when one was assembled.
    pub title: Option<String>,
    /// The first words of the resident's description as one line of at most
    /// [`zayavka_core::PREVIEW_MAX`] characters, cut at a word boundary with «…» (issue 14):
    /// shown under every title so that drafts can be told apart. Always the resident's words,
    /// never the model's; `None` when the input has no description.
    pub preview: Option<String>,
    /// The subject whose legal paragraph the request includes.
    pub subject_module: Option<String>,
    /// The batch the draft belongs to.
    pub batch_id: Option<String>,
    /// The batch row, as a spreadsheet numbers it.
    pub batch_row: Option<u32>,
    /// The resident's input as typed.
    pub input: serde_json::Value,
}

impl From<&DraftSummary> for DraftListItem {
    fn from(summary: &DraftSummary) -> DraftListItem {
        // What was typed may not even be JSON (a file the resident wrote by hand): it is
        // then shown as the text it is.
        let input = serde_json::from_str(&summary.raw_input_json)
            .unwrap_or_else(|_| serde_json::Value::String(summary.raw_input_json.clone()));
        DraftListItem {
            id: summary.id.get(),
            created_at: summary.created_at.to_string(),
            outcome: summary.outcome.code(),
            reason: summary.reason.clone(),
            title: summary.title.clone(),
            preview: preview(&input),
            subject_module: summary.subject_module.clone(),
            batch_id: summary.batch.as_ref().map(|b| b.batch_id.clone()),
            batch_row: summary.batch.as_ref().map(|b| b.row),
            input,
        }
    }
}

/// The preview of a stored input: the first words of its description, from the input the
/// list already holds (no other column is read, so listing stays as fast as it was). The
/// description as typed may hold what the input contract refuses (a draft with invalid
/// input): the preview drops control and invisible characters and joins the lines.
fn preview(input: &serde_json::Value) -> Option<String> {
    let description = input.get("description")?.as_str()?;
    Some(zayavka_core::first_words(
        description,
        zayavka_core::PREVIEW_MAX,
    ))
    .filter(|preview| !preview.is_empty())
}

/// Why a stored draft could not be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DraftsError {
    /// The database could not be opened or used.
    #[error("{}", .0.message_ru())]
    Store(#[from] StoreError),
    /// No draft has this id.
    #[error("черновика с номером {0} нет: проверьте номер в списке черновиков")]
    NotFound(DraftId),
    /// The draft holds no model response to replay.
    #[error("{0}")]
    Replay(#[from] ReplayError),
    /// An edit with an empty title or body.
    #[error("правка пустая: в ней должны быть заголовок (первая строка) и текст заявки")]
    EmptyEdit,
    /// Only a ready draft whose model run is stored can be assembled again.
    #[error(
        "черновик {0} нельзя собрать заново: это можно сделать только с готовой заявкой, \
         составленной моделью"
    )]
    NotReassemblable(DraftId),
    /// A stored document does not read back (the database was changed by hand or is damaged).
    #[error(
        "запись черновика {0} повреждена и не читается; остальные черновики в порядке, а этот \
         можно удалить"
    )]
    Damaged(DraftId),
}

impl DraftsError {
    /// What happened and what to do, in Russian.
    pub fn message_ru(&self) -> String {
        self.to_string()
    }
}

/// The stored drafts, newest first, narrowed by the filter.
pub fn list(store: &Store, filter: &DraftFilter) -> Result<Vec<DraftListItem>, DraftsError> {
    Ok(store
        .list_drafts(filter)?
        .iter()
        .map(DraftListItem::from)
        .collect())
}

/// The stored drafts whose words or request match `text`, best first.
pub fn search(store: &Store, text: &str, limit: u32) -> Result<Vec<DraftListItem>, DraftsError> {
    Ok(store
        .search_drafts(text, limit)?
        .iter()
        .map(DraftListItem::from)
        .collect())
}

/// A stored draft in full.
pub fn get(store: &Store, id: DraftId) -> Result<StoredDraft, DraftsError> {
    store.get_draft(id)?.ok_or(DraftsError::NotFound(id))
}

/// The assembled request of a stored draft, read back through the core's checks.
pub fn stored_request(draft: &StoredDraft) -> Result<Option<Request>, DraftsError> {
    draft
        .request_json
        .as_deref()
        .map(|json| serde_json::from_str(json).map_err(|_| DraftsError::Damaged(draft.summary.id)))
        .transpose()
}

/// The latest context record of a stored draft.
pub fn stored_record(draft: &StoredDraft) -> Result<Option<ContextRecord>, DraftsError> {
    draft
        .records
        .last()
        .map(|stored| {
            serde_json::from_str(&stored.record.record_json)
                .map_err(|_| DraftsError::Damaged(draft.summary.id))
        })
        .transpose()
}

/// What differs between a draft's context record and today's rules, serialised as the stable
/// code `--json` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReplayChange {
    /// The legal modules have a new version.
    LegalCatalogue,
    /// The schema of the model's answer is another one.
    Schema,
    /// The instruction for the model is another one.
    Prompt,
}

impl ReplayChange {
    /// What changed, in Russian, as a list of changes names it («с тех пор изменились …»).
    pub fn label_ru(self) -> &'static str {
        match self {
            ReplayChange::LegalCatalogue => "правовые модули",
            ReplayChange::Schema => "схема ответа модели",
            ReplayChange::Prompt => "инструкция для модели",
        }
    }
}

/// A stored draft replayed offline, and whether today's result is byte-identical to the stored
/// one, and if not, what changed.
#[derive(Debug)]
pub struct StoredReplay {
    /// The replay itself.
    pub replay: Replay,
    /// Whether the request assembled today equals the stored one byte for byte.
    pub identical: bool,
    /// What differs between the record and today's rules, when anything does.
    pub changed: Vec<ReplayChange>,
}

/// Replays a stored draft: validation, policy and assembly on the stored raw response with the
/// stored input.
pub fn replay_stored(store: &Store, id: DraftId) -> Result<StoredReplay, DraftsError> {
    let draft = get(store, id)?;
    let record = stored_record(&draft)?.ok_or(ReplayError::NoResponse)?;
    // The draft's input as it is now: a draft assembled again with a subject the resident
    // confirmed later replays with it (the subject never reached the model, so the record's
    // run is the same); for every other draft it is the input the record holds.
    let catalogue = zayavka_core::legal_catalogue();
    let replay = Replay {
        outcome: crate::draft::reevaluate(&record, &checked_stored_input(&draft)?)?,
        same_catalogue: catalogue.version() == record.legal_catalogue_version,
        recorded_catalogue_version: record.legal_catalogue_version.clone(),
        current_catalogue_version: catalogue.version().to_owned(),
    };
    let stored = stored_request(&draft)?;
    let identical = match (replay.outcome.request(), &stored) {
        (Some(today), Some(then)) => {
            serde_json::to_string(today).ok() == serde_json::to_string(then).ok()
        }
        (None, None) => replay.outcome.reason().map(str::to_owned) == draft.summary.reason,
        _ => false,
    };
    let mut changed = Vec::new();
    if !replay.same_catalogue {
        changed.push(ReplayChange::LegalCatalogue);
    }
    let schema = zayavka_core::request_draft_schema();
    if record.schema_sha256 != schema.sha256() {
        changed.push(ReplayChange::Schema);
    }
    if record.prompt_sha256 != zayavka_core::system_prompt().sha256() {
        changed.push(ReplayChange::Prompt);
    }
    Ok(StoredReplay {
        replay,
        identical,
        changed,
    })
}

/// Deletes a stored draft for good: its text leaves the database file, its log and the search
/// index; the audit log keeps only that a draft with this id was deleted.
pub fn delete(store: &Store, id: DraftId) -> Result<(), DraftsError> {
    get(store, id)?;
    store.delete_draft(id)?;
    Ok(())
}

/// One version of a draft's text written by the resident.
#[derive(Debug, Clone, Serialize)]
pub struct VersionView {
    /// The version number, from 1.
    pub version: u32,
    /// Who wrote it (`resident`).
    pub author: String,
    /// The title.
    pub title: String,
    /// The body.
    pub body: String,
    /// When it was stored, RFC 3339.
    pub created_at: String,
}

/// Everything a front end shows about one stored draft.
#[derive(Debug, Serialize)]
pub struct DraftView {
    /// The summary, as lists show it.
    pub draft: DraftListItem,
    /// For a technical failure: whether trying again may help.
    pub retryable: Option<bool>,
    /// Whether a model wrote the description.
    pub model_used: bool,
    /// The assembled request with its sections, when one was assembled.
    pub request: Option<Request>,
    /// The resident's versions, oldest first.
    pub versions: Vec<VersionView>,
    /// How many HTTP attempts were made.
    pub attempts: usize,
    /// With an explanation: the latest context record (never the key).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record: Option<ContextRecord>,
    /// With an explanation: the legal decision in one plain sentence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal_decision: Option<String>,
}

/// The view of a stored draft; with `explain`, how it was reached.
pub fn view(draft: &StoredDraft, explain: bool) -> Result<DraftView, DraftsError> {
    let request = stored_request(draft)?;
    let (record, legal_decision) = if explain {
        (
            stored_record(draft)?,
            Some(crate::explain::legal_decision_ru(request.as_ref())),
        )
    } else {
        (None, None)
    };
    Ok(DraftView {
        draft: DraftListItem::from(&draft.summary),
        retryable: draft.retryable,
        model_used: draft.model_used,
        request,
        versions: draft
            .versions
            .iter()
            .map(|v| VersionView {
                version: v.version,
                author: v.author.clone(),
                title: v.title.clone(),
                body: v.body.clone(),
                created_at: v.created_at.to_string(),
            })
            .collect(),
        attempts: draft.attempts.len(),
        record,
        legal_decision,
    })
}

/// Stores the resident's own version of a draft's request; the assembled version stays.
/// Returns the new version's number.
pub fn edit(store: &Store, id: DraftId, title: &str, body: &str) -> Result<u32, DraftsError> {
    get(store, id)?;
    let title = title.trim();
    let body = body.trim_end();
    if title.is_empty() || body.trim().is_empty() {
        return Err(DraftsError::EmptyEdit);
    }
    Ok(store.add_version(
        id,
        &zayavka_store::NewVersion {
            author: "resident".to_owned(),
            title: title.to_owned(),
            body: body.to_owned(),
        },
    )?)
}

/// The text a resident files: their latest edit if they made one, else the assembled
/// request; `None` when no request was assembled.
pub fn filed_text(draft: &StoredDraft) -> Result<Option<String>, DraftsError> {
    if let Some(latest) = draft.versions.last() {
        return Ok(Some(format!("{}\n\n{}", latest.title, latest.body)));
    }
    Ok(stored_request(draft)?.map(|request| request.plain_text()))
}

/// Writes a consistent copy of the whole database to `target` while others may use it.
pub fn backup(store: &Store, target: &std::path::Path) -> Result<(), DraftsError> {
    Ok(store.backup_to(target)?)
}

/// What [`restore`] did: how many drafts the restored database holds, and where the database
/// that was in place went, if there was one.
#[derive(Debug, Clone, Serialize)]
pub struct Restored {
    /// The drafts in the restored database.
    pub drafts: usize,
    /// The database that was in place, kept under this name beside the restored one.
    pub set_aside: Option<std::path::PathBuf>,
}

/// Puts a backup written by [`backup`] (on this computer or another) in place as the data
/// folder's database. A database already there is never replaced silently: without `replace`
/// the restore is refused with nothing changed; with it, that database is kept beside the
/// restored one as `zayavka.sqlite3.before-restore-YYYYMMDD-HHMMSS`. Close the app first: a
/// running app keeps writing to the database it opened.
pub fn restore(
    paths: &Paths,
    backup_file: &std::path::Path,
    replace: bool,
) -> Result<Restored, DraftsError> {
    let target = paths.database_file();
    let set_aside = replace.then(|| free_set_aside_name(&target));
    let store = Store::restore_backup(backup_file, &target, set_aside.as_deref())?;
    let drafts = store.list_drafts(&DraftFilter::default())?.len();
    let set_aside = set_aside.filter(|aside| aside.exists());
    Ok(Restored { drafts, set_aside })
}

/// What [`recover`] did.
#[derive(Debug, Clone, Serialize)]
pub struct Recovered {
    /// The new database that holds what could be read.
    pub file: std::path::PathBuf,
    /// The damaged database, left exactly as it was.
    pub damaged: std::path::PathBuf,
    /// The drafts that came through.
    pub drafts: u64,
    /// Whether SQLite met damaged places, so that some records may be missing.
    pub damage_found: bool,
}

/// Copies whatever can still be read of the data folder's database — damaged, or sound — into
/// a new database file, and leaves the original exactly as it was (it is read as bytes only).
///
/// The copy goes to `out` when given, else beside the database as
/// `zayavka-recovered-YYYYMMDD-HHMMSS.sqlite3`. It is a database like a backup: [`restore`]
/// with `replace` puts it in place and keeps the damaged one beside it, so the resident chooses
/// when to switch after looking at what came through. An existing file is never overwritten.
pub fn recover(paths: &Paths, out: Option<&std::path::Path>) -> Result<Recovered, DraftsError> {
    let damaged = paths.database_file();
    let file = match out {
        Some(out) => out.to_owned(),
        None => free_recovered_name(&damaged),
    };
    let recovery = Store::recover_into(&damaged, &file)?;
    Ok(Recovered {
        file,
        damaged,
        drafts: recovery.drafts,
        damage_found: !recovery.damaged_tables.is_empty(),
    })
}

/// `zayavka-recovered-<local time>.sqlite3` beside the database, with a number added if that
/// name is taken.
fn free_recovered_name(database: &std::path::Path) -> std::path::PathBuf {
    let stamp = jiff::Zoned::now().strftime("%Y%m%d-%H%M%S").to_string();
    let mut candidate = database.with_file_name(format!("zayavka-recovered-{stamp}.sqlite3"));
    let mut number = 2;
    while candidate.exists() {
        candidate = database.with_file_name(format!("zayavka-recovered-{stamp}-{number}.sqlite3"));
        number += 1;
    }
    candidate
}

/// `zayavka.sqlite3.before-restore-<local time>`, with a number added if that name is taken
/// (a rename would replace it).
fn free_set_aside_name(database: &std::path::Path) -> std::path::PathBuf {
    let stamp = jiff::Zoned::now().strftime("%Y%m%d-%H%M%S").to_string();
    let name = database
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut candidate = database.with_file_name(format!("{name}.before-restore-{stamp}"));
    let mut number = 2;
    while candidate.exists() {
        candidate = database.with_file_name(format!("{name}.before-restore-{stamp}-{number}"));
        number += 1;
    }
    candidate
}

/// The typed input of a stored draft, to send again.
pub fn stored_input(draft: &StoredDraft) -> RawInput {
    serde_json::from_str(&draft.summary.raw_input_json).unwrap_or_default()
}

/// Whether a stored draft may be sent again: one that never finished (a crash, a kill, Ctrl-C
/// during the call) or that ended in a technical failure or a rejected answer.
pub fn may_retry(draft: &StoredDraft) -> bool {
    matches!(
        draft.summary.outcome,
        DraftOutcome::Pending | DraftOutcome::Failed | DraftOutcome::Rejected
    )
}

fn checked_stored_input(draft: &StoredDraft) -> Result<ResidentInput, DraftsError> {
    ResidentInput::parse(&stored_input(draft)).map_err(|errors| {
        let messages: Vec<String> = errors.iter().map(|e| e.message_ru()).collect();
        DraftsError::Replay(ReplayError::InvalidInput(messages.join(" ")))
    })
}

/// A ready draft assembled again with the subject the resident has now confirmed, from the
/// model response stored with it: no model call, the same draft. The subject never reaches the
/// model, so the stored response is exactly what a new call with the confirmation would have
/// been evaluated against; the legal paragraph is then added only if the model's classification
/// and its verbatim evidence agree with the confirmation, as for any draft. The resident's
/// earlier edits stay as versions.
pub fn reassemble(
    store: &Store,
    id: DraftId,
    subject: zayavka_core::SubjectKind,
) -> Result<(StoredDraft, Outcome), DraftsError> {
    let draft = get(store, id)?;
    let record = match (draft.summary.outcome, stored_record(&draft)?) {
        (DraftOutcome::Ready, Some(record)) if draft.model_used => record,
        _ => return Err(DraftsError::NotReassemblable(id)),
    };
    let mut raw = stored_input(&draft);
    raw.confirmed_subject = Some(subject.code().to_owned());
    let json = serde_json::to_string_pretty(&raw).expect("a raw input serialises");
    let checked = ResidentInput::parse(&raw).map_err(|errors| {
        let messages: Vec<String> = errors.iter().map(|e| e.message_ru()).collect();
        DraftsError::Replay(ReplayError::InvalidInput(messages.join(" ")))
    })?;
    let outcome = crate::draft::reevaluate(&record, &checked)?;
    store.reassemble_draft(
        id,
        &crate::database::new_draft(&json, Some(&checked)),
        &crate::draft::finished_draft(&outcome, true),
    )?;
    Ok((get(store, id)?, outcome))
}

/// How a stored draft stands now, as the outcome its run returned, so that a front end shows a
/// stored draft exactly as it showed the fresh one: the stored request of a ready draft; the
/// stored model response evaluated again for one that needed the resident or was rejected
/// (which brings back the hints and findings); the input's errors for refused input; the
/// failure of a technical failure. `None` for a draft that never finished.
pub fn stored_outcome(draft: &StoredDraft) -> Result<Option<Outcome>, DraftsError> {
    let damaged = || DraftsError::Damaged(draft.summary.id);
    let outcome = match draft.summary.outcome {
        DraftOutcome::Pending => return Ok(None),
        DraftOutcome::Ready => Outcome::Ready(stored_request(draft)?.ok_or_else(damaged)?),
        DraftOutcome::InvalidInput => match ResidentInput::parse(&stored_input(draft)) {
            Err(errors) => Outcome::InvalidInput(errors),
            // The text fitted every field but not the request as a whole (a draft without a
            // model refuses that before assembling).
            Ok(input) => zayavka_core::offline_request(&input, zayavka_core::legal_catalogue()),
        },
        DraftOutcome::Failed => {
            let mut failure = zayavka_core::Failure::new(
                draft
                    .summary
                    .reason
                    .as_deref()
                    .and_then(zayavka_core::FailureReason::from_code)
                    .ok_or_else(damaged)?,
                draft.retryable.unwrap_or(false),
                String::new(),
            );
            // The server's reason is in the record's attempts; the service's advice needed the
            // settings of the run, which the record does not keep, so the reason's own message
            // is shown again.
            if let Ok(Some(record)) = stored_record(draft) {
                failure.advice.server_reason =
                    crate::draft::advice::server_reason(&record.attempts, None);
            }
            Outcome::Failed(failure)
        }
        DraftOutcome::NeedsUser | DraftOutcome::Rejected => {
            let record = stored_record(draft)?.ok_or_else(damaged)?;
            crate::draft::reevaluate(&record, &checked_stored_input(draft)?)?
        }
    };
    Ok(Some(outcome))
}

impl crate::error::EngineError for DraftsError {
    fn kind(&self) -> crate::error::ErrorKind {
        match self {
            DraftsError::Store(_) => crate::error::ErrorKind::Store,
            DraftsError::NotFound(_) => crate::error::ErrorKind::NotFound,
            DraftsError::EmptyEdit => crate::error::ErrorKind::EmptyEdit,
            DraftsError::NotReassemblable(_) => crate::error::ErrorKind::NotReassemblable,
            DraftsError::Replay(_) | DraftsError::Damaged(_) => crate::error::ErrorKind::Damaged,
        }
    }

    fn message_ru(&self) -> String {
        DraftsError::message_ru(self)
    }

    fn store_code(&self) -> Option<zayavka_store::StoreErrorCode> {
        match self {
            DraftsError::Store(error) => Some(error.code()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replay_change_prints_the_code_replay_json_always_printed_and_a_russian_label() {
        for (change, code, label) in [
            (
                ReplayChange::LegalCatalogue,
                "legal_catalogue",
                "правовые модули",
            ),
            (ReplayChange::Schema, "schema", "схема ответа модели"),
            (ReplayChange::Prompt, "prompt", "инструкция для модели"),
        ] {
            assert_eq!(serde_json::to_value(change).unwrap(), code);
            assert_eq!(change.label_ru(), label);
        }
    }

    #[test]
    fn issue_14_the_preview_is_one_clean_line_of_the_residents_first_words() {
        let input = serde_json::json!({
            "description": "В подъезде\n\nне горит свет\u{202e} уже неделю, на лестнице между \
                            третьим и четвёртым этажами темно, жильцы спотыкаются и падают",
        });
        assert_eq!(
            preview(&input).as_deref(),
            Some("В подъезде не горит свет уже неделю, на лестнице между третьим и четвёртым…")
        );
        assert_eq!(preview(&serde_json::json!({"description": " \n "})), None);
        assert_eq!(preview(&serde_json::json!({"location": "Подъезд 2"})), None);
        assert_eq!(preview(&serde_json::json!("не JSON")), None);
    }
}
