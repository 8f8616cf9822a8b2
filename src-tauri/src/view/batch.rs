//! «Пакет» as the page receives it (docs/desktop-ipc.md): a file's plan with the token a run
//! takes, the earlier batches, a batch's rows, a run's progress and summary, and what an
//! export wrote.

use std::path::Path;

use serde::Serialize;
use zayavka_engine::{
    BatchListItem, BatchPreview, BatchProgress, BatchRowReport, BatchSummary, DocumentsReport,
    ExportReport, InvalidRow, PlanCost, RowPlan, StopReason,
};

/// What a run of a batch file will do, shown before anything is sent: the engine's plan, row
/// numbers by what happens to them, and the token `batch_run` takes.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct BatchPlanView {
    /// Names this plan for `batch_run`.
    pub check_token: String,
    /// The batch the run continues; `None` when it starts a new one.
    pub batch_number: Option<u32>,
    /// The file's name.
    pub file_name: String,
    /// Data rows, valid or not.
    pub rows: u32,
    /// The plan is made without a model: none is set up (see `model_problem`).
    pub offline: bool,
    /// Why the rows cannot go to a model now, in Russian; `None` when they can.
    pub model_problem: Option<String>,
    /// Rows the batch has not seen: they are sent.
    pub new: Vec<u32>,
    /// Rows changed since the last run: they are sent again.
    pub changed: Vec<u32>,
    /// Rows not finished by an earlier run: they are sent.
    pub unfinished: Vec<u32>,
    /// Rows finished by an earlier run: not sent again.
    pub done_before: Vec<u32>,
    /// Rows refused by the check, with why: never sent.
    pub invalid: Vec<InvalidRow>,
    /// Rows of the last run's file that are no longer in it (their drafts stay).
    pub no_longer_in_file: u32,
    /// Rows the run drafts (with the model or without).
    pub to_draft: u32,
    /// Of them, the rows that go to the model (0 without one).
    pub to_send: u32,
    /// What sending may cost at most.
    pub cost: PlanCost,
}

impl BatchPlanView {
    /// The engine's preview, under the token that names it for `batch_run`.
    pub fn new(check_token: String, preview: BatchPreview) -> BatchPlanView {
        let BatchPreview {
            plan,
            model_problem,
        } = preview;
        let to_draft = plan
            .row_plans
            .iter()
            .filter(|row| row.plan.is_sent())
            .count() as u32;
        BatchPlanView {
            check_token,
            batch_number: plan.batch_number,
            new: plan.rows_with(RowPlan::New),
            changed: plan.rows_with(RowPlan::Changed),
            unfinished: plan.rows_with(RowPlan::Unfinished),
            done_before: plan.rows_with(RowPlan::DoneBefore),
            to_send: plan.to_send(),
            file_name: plan.file_name,
            rows: plan.rows,
            offline: plan.offline,
            model_problem,
            invalid: plan.invalid,
            no_longer_in_file: plan.no_longer_in_file,
            to_draft,
            cost: plan.cost,
        }
    }
}

/// One earlier batch, as «Пакет» lists it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, ts_rs::TS)]
pub struct BatchListView {
    /// Its short number: «Пакет 3».
    pub number: u32,
    /// The file's name as last run.
    pub file_name: String,
    /// The file's path as last run, when known.
    pub source_path: Option<String>,
    /// Whether that file is still there, so that the batch can be continued from it.
    pub file_found: bool,
    /// When it was first run, RFC 3339.
    pub created_at: String,
    /// When it was last run, RFC 3339.
    pub updated_at: String,
    /// The file's data rows as last run.
    pub rows: u32,
    /// Rows whose request is ready.
    pub ready: u32,
    /// Rows whose description must be changed, or whose model answer could not be used.
    pub needs_attention: u32,
    /// Rows that failed for a technical reason.
    pub failed: u32,
    /// Valid rows not drafted yet.
    pub unfinished: u32,
    /// Rows refused by the check.
    pub invalid: u32,
    /// Every valid row has an outcome and none failed.
    pub complete: bool,
}

impl From<BatchListItem> for BatchListView {
    fn from(batch: BatchListItem) -> BatchListView {
        BatchListView {
            complete: batch.complete(),
            file_found: batch.source_file().is_some(),
            number: batch.number,
            file_name: batch.file_name,
            source_path: batch.source_path,
            created_at: batch.created_at,
            updated_at: batch.updated_at,
            rows: batch.rows,
            ready: batch.ready,
            needs_attention: batch.needs_attention,
            failed: batch.failed,
            unfinished: batch.unfinished,
            invalid: batch.invalid,
        }
    }
}

/// One row of a batch with what became of it, and its state in Russian.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct BatchRowView {
    /// The engine's report: row, full_name, apartment, status, title, reason, reason_ru,
    /// retryable, draft_id.
    #[serde(flatten)]
    pub report: BatchRowReport,
    /// The status as a chip shows it.
    pub status_label: &'static str,
}

impl From<BatchRowReport> for BatchRowView {
    fn from(report: BatchRowReport) -> BatchRowView {
        BatchRowView {
            status_label: report.status.label_ru(),
            report,
        }
    }
}

/// How far a batch run has got, for the progress bar: this run's rows.
#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq, Eq, ts_rs::TS)]
pub struct BatchProgressView {
    /// Rows of this run finished.
    pub done: u32,
    /// Rows this run will process.
    pub total: u32,
    /// Of the finished rows, ready.
    pub ready: u32,
    /// … needing the resident.
    pub needs_user: u32,
    /// … rejected.
    pub rejected: u32,
    /// … failed.
    pub failed: u32,
}

impl From<BatchProgress> for BatchProgressView {
    fn from(report: BatchProgress) -> BatchProgressView {
        BatchProgressView {
            done: report.finished,
            total: report.to_run,
            ready: report.ready,
            needs_user: report.needs_user,
            rejected: report.rejected,
            failed: report.failed,
        }
    }
}

/// How a batch run ended.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct BatchSummaryView {
    /// The counts of this run.
    #[serde(flatten)]
    pub progress: BatchProgressView,
    /// The batch's number: «Пакет 3».
    pub batch_number: u32,
    /// HTTP requests sent by this run.
    pub sent: u64,
    /// Tokens over the whole batch.
    pub tokens: u64,
    /// Priced cost of the whole batch.
    pub cost: Option<f64>,
    /// The currency of `cost` as the batch recorded it (`RUB`, `USD`); `None` when it named
    /// none.
    pub currency: Option<String>,
    /// Why the run stopped early: `cancelled`, `provider_refused`, `cost_cap`; `None` when it
    /// went through.
    pub stopped: Option<StopReason>,
    /// Valid rows of the whole batch not drafted yet.
    pub unfinished: u32,
    /// Every valid row of the batch has an outcome and none failed.
    pub complete: bool,
    /// What became of every row of the file — refused before sending, drafted by this run or
    /// before it, not drafted yet — and the outcomes over the batch, in Russian (issue 31).
    pub rows_ru: String,
}

impl BatchSummaryView {
    /// The engine's summary, with this run's counts as its last progress event gave them.
    pub fn new(last: BatchProgress, summary: BatchSummary) -> BatchSummaryView {
        BatchSummaryView {
            rows_ru: summary.rows_ru(Some(last.finished)),
            progress: BatchProgressView::from(last),
            complete: summary.complete(),
            batch_number: summary.batch_number,
            sent: summary.sent,
            tokens: summary.tokens,
            cost: summary.cost,
            currency: summary.currency,
            stopped: summary.stopped,
            unfinished: summary.unfinished,
        }
    }
}

/// What a batch export wrote.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, ts_rs::TS)]
pub struct BatchExportView {
    /// The folder written to.
    pub folder: String,
    /// How many files were written (or were already there, identical).
    pub written: usize,
    /// The rows without a document, with the reason in Russian.
    pub skipped: Vec<SkippedRowView>,
}

impl BatchExportView {
    /// The one results file (CSV or JSONL) written into `folder`.
    pub fn results(folder: &Path, report: &ExportReport) -> BatchExportView {
        BatchExportView {
            folder: folder.display().to_string(),
            written: report.files.len(),
            skipped: Vec::new(),
        }
    }

    /// The rows' documents, and the rows without one.
    pub fn documents(report: &DocumentsReport) -> BatchExportView {
        BatchExportView {
            folder: report.dir.display().to_string(),
            written: report.written.len(),
            skipped: report
                .skipped
                .iter()
                .map(|skipped| SkippedRowView {
                    row: skipped.row,
                    reason: skipped.reason.message_ru(),
                })
                .collect(),
        }
    }
}

/// A batch row that has no document.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, ts_rs::TS)]
pub struct SkippedRowView {
    /// The row's number as the spreadsheet shows it.
    pub row: u32,
    /// Why, in Russian.
    pub reason: String,
}
