//! What a batch run will do, before it does it, and what became of each row after.
//!
//! A batch is the activist's file: running the file again continues the batch last run from
//! the same path (or, when the file was moved, from the very same bytes), and within it a row
//! is recognised by its input, not by its place or by the file's bytes. So filling in the one
//! empty description the check pointed at and running the file again sends exactly that row;
//! re-saving the file in Excel, in another encoding or with other line ends, reordering rows or
//! adding rows changes nothing for the rows already done (ADR 14). [`plan_batch`] says which
//! rows are new, which changed, which were done before and which are refused, and what sending
//! them may cost at most, so that a front end asks before anything is sent.

use serde::Serialize;
use zayavka_core::{FailureReason, NeedsUserReason, RawInput, RejectionReason, ResidentInput};
use zayavka_store::{Batch, BatchRowResult, DraftId, DraftOutcome, RowMatch, RowState, Store};

use super::common::{BatchError, BatchSettings, new_rows, row_cost_estimate, row_errors};
use super::file::{BatchFile, InvalidRow, RowHeader};
use crate::draft::EnvironmentOverrides;
use crate::paths::Paths;
use crate::secrets::SecretStore;

/// What a run does with one row of the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RowPlan {
    /// A row the batch has not seen: it is sent.
    New,
    /// The row at this place was changed since the last run: it is sent as a new row.
    Changed,
    /// The batch holds this row, but it is not finished (never sent, interrupted, or failed
    /// for a reason that may pass): it is sent.
    Unfinished,
    /// An earlier run finished this row: it is not sent again.
    DoneBefore,
    /// The row failed its checks: it is never sent.
    Invalid,
}

impl RowPlan {
    /// Whether the run sends this row.
    pub fn is_sent(self) -> bool {
        matches!(self, RowPlan::New | RowPlan::Changed | RowPlan::Unfinished)
    }
}

/// One row of the plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlannedRow {
    /// The row's number as the spreadsheet shows it.
    pub row: u32,
    /// What the run does with it.
    pub plan: RowPlan,
}

/// What sending the rows may cost.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PlanCost {
    /// Nothing is sent: the batch runs without a model, or every row is done or refused.
    Nothing,
    /// The profile has no prices, so the cost cannot be estimated.
    Unknown,
    /// At most this much, at the profile's prices: every row with every re-ask, its whole
    /// request counted byte for byte and the longest answer allowed (ADR 14).
    AtMost {
        /// The amount.
        amount: f64,
        /// The profile's currency, when it names one.
        currency: Option<String>,
    },
}

/// What a run of this file will do, before anything is stored or sent.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BatchPlan {
    /// The batch the run continues; `None` when it starts a new one.
    pub batch_number: Option<u32>,
    /// The file's name.
    pub file_name: String,
    /// The data rows of the file, valid or not.
    pub rows: u32,
    /// Every row, in file order, with what the run does with it.
    pub row_plans: Vec<PlannedRow>,
    /// The rows that failed their checks, with why.
    pub invalid: Vec<InvalidRow>,
    /// Rows of the last run's file that are no longer in it (their drafts stay).
    pub no_longer_in_file: u32,
    /// Whether the rows are drafted without a model (nothing is sent anywhere).
    pub offline: bool,
    /// What sending may cost.
    pub cost: PlanCost,
}

impl BatchPlan {
    /// How many rows have this plan.
    pub fn count(&self, plan: RowPlan) -> u32 {
        self.row_plans.iter().filter(|row| row.plan == plan).count() as u32
    }

    /// The rows of this plan, by number.
    pub fn rows_with(&self, plan: RowPlan) -> Vec<u32> {
        self.row_plans
            .iter()
            .filter(|row| row.plan == plan)
            .map(|row| row.row)
            .collect()
    }

    /// How many rows go to the model.
    pub fn to_send(&self) -> u32 {
        if self.offline {
            return 0;
        }
        self.row_plans
            .iter()
            .filter(|row| row.plan.is_sent())
            .count() as u32
    }

    /// Whether a front end must ask before running: something goes to the model (and may cost
    /// money). Drafting without a model sends nothing and needs no confirmation.
    pub fn needs_confirmation(&self) -> bool {
        self.to_send() > 0
    }
}

/// Refuses a file with more rows than the limit allows.
pub(super) fn check_row_limit(
    file: &BatchFile,
    settings: &BatchSettings,
) -> Result<(), BatchError> {
    let rows = file.rows().len() as u32;
    if rows > settings.max_rows {
        return Err(BatchError::TooManyRows {
            rows,
            limit: settings.max_rows,
        });
    }
    Ok(())
}

/// The batch this file continues: none when a new batch is asked for; the batch named by its
/// number when one is; otherwise the one last run from the same path, or else from the same
/// bytes.
pub(super) fn existing_batch(
    store: &Store,
    file: &BatchFile,
    settings: &BatchSettings,
) -> Result<Option<Batch>, BatchError> {
    if settings.new_batch {
        return Ok(None);
    }
    if let Some(number) = settings.batch_number {
        return store
            .batch_by_number(number)?
            .map(Some)
            .ok_or_else(|| BatchError::NotFound(number.to_string()));
    }
    let path = file
        .source_path()
        .map(|path| path.to_string_lossy().into_owned());
    Ok(store.find_batch(path.as_deref(), file.content_sha256())?)
}

/// Plans a run of `file`: which batch it continues, what happens to each row, and what the
/// rows it sends may cost at most. Nothing is stored or sent. A file over the row limit is
/// refused here, and so are provider settings that cannot work, before anyone is asked.
pub fn plan_batch(
    store: &Store,
    file: &BatchFile,
    settings: &BatchSettings,
    paths: &Paths,
    secrets: &dyn SecretStore,
    environment: EnvironmentOverrides,
) -> Result<BatchPlan, BatchError> {
    check_row_limit(file, settings)?;
    let existing = existing_batch(store, file, settings)?;
    let rows = new_rows(file);
    let (matches, removed) = match &existing {
        Some(batch) => {
            let matching = store.match_batch_rows(&batch.id, &rows)?;
            (matching.rows, matching.removed.len() as u32)
        }
        None => (vec![RowMatch::New; rows.len()], 0),
    };
    // A changed row's earlier version is not in the file any more either, but the plan names
    // it as changed, not as gone.
    let changed = matches
        .iter()
        .filter(|matched| matches!(matched, RowMatch::Changed { .. }))
        .count() as u32;
    let removed = removed.saturating_sub(changed);
    let row_plans: Vec<PlannedRow> = file
        .rows()
        .iter()
        .zip(&matches)
        .map(|(row, matched)| PlannedRow {
            row: row.row_number(),
            plan: if !row.is_valid() {
                RowPlan::Invalid
            } else {
                match matched {
                    RowMatch::New => RowPlan::New,
                    RowMatch::Changed { .. } => RowPlan::Changed,
                    RowMatch::Same { state, .. } => match state {
                        RowState::Pending | RowState::FailedRetryable => RowPlan::Unfinished,
                        _ => RowPlan::DoneBefore,
                    },
                }
            },
        })
        .collect();
    let mut plan = BatchPlan {
        batch_number: existing.map(|batch| batch.number),
        file_name: file.file_name().to_owned(),
        rows: rows.len() as u32,
        row_plans,
        invalid: file.invalid(),
        no_longer_in_file: removed,
        offline: settings.offline,
        cost: PlanCost::Nothing,
    };
    if plan.to_send() == 0 {
        return Ok(plan);
    }
    let model = crate::draft::model_settings(&settings.overrides, paths, secrets, environment)
        .map_err(|failure| BatchError::Settings(failure.detail))?;
    plan.cost = match &model.provider.pricing {
        None => PlanCost::Unknown,
        Some(pricing) => PlanCost::AtMost {
            amount: file
                .rows()
                .iter()
                .zip(&plan.row_plans)
                .filter(|(_, planned)| planned.plan.is_sent())
                .filter_map(|(row, _)| row.checked().ok())
                .map(|input| row_cost_estimate(input, &model, pricing))
                .sum(),
            currency: pricing.currency.clone(),
        },
    };
    Ok(plan)
}

/// A plan as the desktop's «Пакет» shows it before anything is sent: the model's plan when one
/// is set up, and otherwise the plan without a model, with why.
#[derive(Debug, Clone)]
pub struct BatchPreview {
    /// The plan.
    pub plan: BatchPlan,
    /// Why the rows cannot go to a model now, as a Russian sentence; `None` when they can (the
    /// plan is then the model's).
    pub model_problem: Option<String>,
}

/// Which batch a file's run makes or continues, and how many rows it may have: what a front
/// end chooses before the plan (`batch run --new --max-rows`, the app's «Новый пакет»).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchChoice {
    /// The earlier batch to continue, by number; `None` continues the batch last run from the
    /// file, if any.
    pub batch_number: Option<u32>,
    /// Start a new batch even when the file was run before.
    pub new_batch: bool,
    /// Refuse a file with more data rows than this.
    pub max_rows: u32,
}

impl Default for BatchChoice {
    fn default() -> BatchChoice {
        BatchChoice {
            batch_number: None,
            new_batch: false,
            max_rows: super::common::DEFAULT_MAX_ROWS,
        }
    }
}

/// Plans a run of `file` that continues batch `batch_number` (or, when `None`, the batch last
/// run from the same file): with the model and `environment` when the settings allow, and
/// otherwise without a model ([`BatchPreview`]). Nothing is stored or sent.
pub fn preview_batch(
    store: &Store,
    file: &BatchFile,
    choice: BatchChoice,
    paths: &Paths,
    secrets: &dyn SecretStore,
    environment: EnvironmentOverrides,
) -> Result<BatchPreview, BatchError> {
    let settings = |offline| BatchSettings {
        batch_number: choice.batch_number,
        new_batch: choice.new_batch,
        max_rows: choice.max_rows,
        ..BatchSettings::new(offline)
    };
    match plan_batch(store, file, &settings(false), paths, secrets, environment) {
        Ok(plan) => Ok(BatchPreview {
            plan,
            model_problem: None,
        }),
        Err(BatchError::Settings(problem)) => {
            let offline = EnvironmentOverrides::default();
            Ok(BatchPreview {
                plan: plan_batch(store, file, &settings(true), paths, secrets, offline)?,
                model_problem: Some(zayavka_core::full_sentence(&problem)),
            })
        }
        Err(error) => Err(error),
    }
}

/// A batch as a person names it: its short number (or, for scripts written earlier, its id
/// or the first characters of it, at least eight).
pub fn find_batch(store: &Store, name: &str) -> Result<Batch, BatchError> {
    let name = name.trim();
    let not_found = || BatchError::NotFound(name.to_owned());
    if let Ok(number) = name.trim_start_matches('№').trim().parse::<u32>() {
        return store.batch_by_number(number)?.ok_or_else(not_found);
    }
    let hex = name.len() >= 8 && name.bytes().all(|b| b.is_ascii_hexdigit());
    if !hex {
        return Err(not_found());
    }
    let name = name.to_ascii_lowercase();
    let mut found = store
        .list_batches()?
        .into_iter()
        .filter(|batch| batch.id.starts_with(&name));
    match (found.next(), found.next()) {
        (Some(batch), None) => Ok(batch),
        _ => Err(not_found()),
    }
}

/// Where a row of a batch stands, as `batch status` lists it and the app's table shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum RowStatus {
    /// The row failed its checks and is never sent.
    Invalid,
    /// Not drafted yet: never run, interrupted, or held back by a stop or the cost cap.
    Waiting,
    /// The request is ready.
    Ready,
    /// The description must be changed (several problems, or too little to go on).
    NeedsUser,
    /// The model's answer could not be used.
    Rejected,
    /// A technical failure; `retryable` says whether the next run sends it again.
    Failed,
}

impl RowStatus {
    /// The status in Russian, as a spreadsheet user reads it.
    pub fn label_ru(self) -> &'static str {
        match self {
            RowStatus::Invalid => "ошибка в строке",
            RowStatus::Waiting => "ещё не составлена",
            RowStatus::Ready => "готова",
            RowStatus::NeedsUser => "нужно уточнить описание",
            RowStatus::Rejected => "ответ модели не подошёл",
            RowStatus::Failed => "сбой",
        }
    }
}

/// One row of a batch with what became of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct BatchRowReport {
    /// The row's number as the spreadsheet shows it.
    pub row: u32,
    /// The row's «ФИО».
    pub full_name: Option<String>,
    /// The row's «Квартира».
    pub apartment: Option<String>,
    /// Where it stands.
    pub status: RowStatus,
    /// The request's title, when there is a request.
    pub title: Option<String>,
    /// The stable code of why it was refused, needs the resident, was rejected or failed.
    pub reason: Option<String>,
    /// The same in Russian, saying what to do.
    pub reason_ru: Option<String>,
    /// Whether the next run sends a failed row again.
    pub retryable: Option<bool>,
    /// Its draft, once there is one.
    pub draft_id: Option<DraftId>,
}

fn needs_user_ru(reason: Option<NeedsUserReason>) -> &'static str {
    match reason {
        Some(NeedsUserReason::MultipleProblems) => {
            "В описании несколько разных проблем: оставьте в строке одну, для других добавьте \
             отдельные строки."
        }
        _ => "Из описания не понятно, в чём проблема: допишите, что случилось, где и как давно.",
    }
}

fn rejected_ru(reason: Option<RejectionReason>) -> &'static str {
    match reason {
        Some(RejectionReason::BodyTooLong) => {
            "Текст заявки получился слишком длинным: сократите описание или последствия в строке."
        }
        Some(RejectionReason::UnrelatedDraft) => {
            "Модель описала другую проблему, а не ту, что в строке, поэтому заявки нет. Это не \
             оценка проблемы: строку можно составить снова, с моделью побольше или без модели."
        }
        _ => {
            "Ответ модели не прошёл проверку. Это не оценка проблемы: строку можно составить \
             снова или без модели."
        }
    }
}

/// Every row of the batch's file as last run, in file order, with its status and, for a row
/// that was refused, needs the resident, was rejected or failed, the reason.
pub fn batch_row_reports(store: &Store, batch_id: &str) -> Result<Vec<BatchRowReport>, BatchError> {
    let rows = match store.batch_row_results(batch_id) {
        Err(zayavka_store::StoreError::BatchNotFound(_)) => {
            return Err(BatchError::NotFound(batch_id.to_owned()));
        }
        other => other?,
    };
    Ok(rows.iter().map(row_report).collect())
}

fn row_report(row: &BatchRowResult) -> BatchRowReport {
    let header: RowHeader = row
        .header_json
        .as_deref()
        .and_then(|json| serde_json::from_str(json).ok())
        .unwrap_or_default();
    let reason = row.reason.clone();
    let (status, reason_ru) = if row.checked_input_json.is_none() {
        let raw: RawInput = serde_json::from_str(&row.raw_input_json).unwrap_or_default();
        let messages: Vec<String> = ResidentInput::parse(&raw)
            .err()
            .map(|errors| row_errors(&errors))
            .unwrap_or_default()
            .into_iter()
            .map(|error| error.message)
            .collect();
        (RowStatus::Invalid, Some(messages.join(" ")))
    } else {
        match row.outcome {
            None | Some(DraftOutcome::Pending) => (RowStatus::Waiting, None),
            Some(DraftOutcome::Failed) if row.state == RowState::Pending => {
                (RowStatus::Waiting, None)
            }
            Some(DraftOutcome::Ready) => (RowStatus::Ready, None),
            Some(DraftOutcome::NeedsUser) => (
                RowStatus::NeedsUser,
                Some(
                    needs_user_ru(reason.as_deref().and_then(NeedsUserReason::from_code))
                        .to_owned(),
                ),
            ),
            Some(DraftOutcome::Rejected | DraftOutcome::InvalidInput) => (
                RowStatus::Rejected,
                Some(
                    rejected_ru(reason.as_deref().and_then(RejectionReason::from_code)).to_owned(),
                ),
            ),
            Some(DraftOutcome::Failed) => {
                let failure = reason.as_deref().and_then(FailureReason::from_code);
                let next = if row.state == RowState::FailedRetryable {
                    " Следующий запуск пакета отправит строку снова."
                } else {
                    ""
                };
                (
                    RowStatus::Failed,
                    Some(format!(
                        "{}{next}",
                        failure.map_or("Технический сбой.", FailureReason::message_ru)
                    )),
                )
            }
        }
    };
    let reason = match status {
        RowStatus::Invalid => Some("invalid_input".to_owned()),
        RowStatus::Waiting | RowStatus::Ready => None,
        _ => reason,
    };
    BatchRowReport {
        row: row.file_row,
        full_name: header.full_name,
        apartment: header.apartment,
        status,
        title: row.title.clone(),
        reason,
        reason_ru,
        retryable: (status == RowStatus::Failed).then_some(row.retryable.unwrap_or(false)),
        draft_id: row.draft_id,
    }
}
