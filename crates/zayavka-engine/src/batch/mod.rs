//! Batches: many requests in one file, for a building activist who prepares a whole entrance at
//! once.
//!
//! [`file`] reads the file (CSV as Excel and LibreOffice save it, the first sheet of an XLSX
//! workbook, or JSON Lines) into rows that are each checked against the resident input contract
//! before anything is sent, so that an invalid row is reported by its spreadsheet row number and
//! never silently dropped (ADR 13); [`run`] drafts the rows with bounded concurrency, a rate
//! limit and a cost cap, and resumes after a crash (ADR 14); [`documents`] writes one filed
//! document per row, each under that row's own header (ADR 17).

mod common;
pub mod documents;
pub mod file;
pub mod plan;
pub mod run;

pub use common::DEFAULT_MAX_ROWS;
pub use documents::{
    DocumentsError, DocumentsExport, DocumentsReport, SkipReason, SkippedRow, WriteStatus,
    WrittenDocument, export_documents,
};
pub use file::{
    BatchFile, BatchFileError, BatchFileErrorCode, ContentErrorCode, InvalidRow, MAX_ROWS,
};
pub use plan::{
    BatchChoice, BatchPlan, BatchPreview, BatchRowReport, PlanCost, RowPlan, RowStatus,
    batch_row_reports, find_batch, plan_batch, preview_batch,
};
