//! The evaluation harness behind `zayavka eval` (issue 17, ADR 28): a corpus of Russian cases
//! run against one or more provider profiles, every answer kept as a cassette in the store, and
//! each answer checked against its case.
//!
//! - [`case`]: the case format of `tests/eval/README.md`, read strictly;
//! - [`plan`]: what a run would send and what it may cost at most — the default, which sends
//!   nothing;
//! - [`run`]: the run itself (bounded concurrency, each answer stored as it arrives, Ctrl-C keeps
//!   what finished) and the replay of a stored run with no network;
//! - [`checks`]: the checks of one answer — the hard expectations, the invented-content checks
//!   (the core's faithfulness checks among them) and the `must_keep` facts;
//! - [`report`]: the results and the summary per profile, with a reviewer's marks counted;
//! - [`sheet`]: the review sheet, self-contained HTML and Markdown.
//!
//! The model call of a run renders the chosen registered prompt (`--prompt`) and otherwise asks
//! as a draft does: the same chat request, the same local validation, one re-ask for malformed
//! output, and the profile's budget and retries in the client.

pub mod case;
pub mod checks;
pub mod export;
pub mod plan;
pub mod report;
pub mod run;
pub mod sheet;

use std::path::PathBuf;

pub use checks::HARD_CHECKS;
pub use export::{EvalExport, ExportedCase, export_eval_requests};
pub use plan::{DEFAULT_MAX_COST, EvalCost, EvalPlan, EvalSettings, PreparedEval, prepare_eval};
pub use report::{EvalReport, HardVerdict, read_marks};
pub use run::{EvalProgress, replay_eval, run_eval};
pub use sheet::{SUMMARY_COLUMNS, SheetFiles, summary_cells, write_sheet};

/// Why an evaluation could not plan, run or replay. Each message is in Russian and says what to
/// fix; the command line adds the flag that fixes it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EvalError {
    /// The folder of cases does not exist or cannot be read.
    #[error("папки со случаями «{}» нет или её не прочитать", path.display())]
    CasesNotFound {
        /// The folder.
        path: PathBuf,
    },
    /// The folder holds no case file.
    #[error("в папке «{}» нет ни одного случая (файлов *.json)", path.display())]
    NoCases {
        /// The folder.
        path: PathBuf,
    },
    /// A case file breaks the format.
    #[error("случай «{}»: {message}", path.display())]
    InvalidCase {
        /// The file.
        path: PathBuf,
        /// What is wrong, in Russian.
        message: String,
    },
    /// A case asked for by id has no file.
    #[error("случая «{id}» нет в папке «{}»: проверьте id (это имя файла без .json)", dir.display())]
    UnknownCase {
        /// The id.
        id: String,
        /// The folder searched.
        dir: PathBuf,
    },
    /// No registered system prompt has this version.
    #[error("инструкции для модели версии «{version}» нет; есть {}", known.join(", "))]
    UnknownPrompt {
        /// The version asked for.
        version: String,
        /// The registered versions.
        known: Vec<String>,
    },
    /// A profile's settings or key could not be resolved; nothing was sent.
    #[error("профиль «{profile}»: {message}")]
    Settings {
        /// The profile as named (or «по умолчанию»).
        profile: String,
        /// Why, in Russian.
        message: String,
    },
    /// No provider profile is configured and none was named.
    #[error("провайдер модели не выбран: активного профиля нет")]
    NoProfile,
    /// The worst-case cost of a profile's requests is above the cap.
    #[error(
        "оценка может стоить до {amount} для профиля «{profile}», а предел — {cap}; ничего не \
         отправлено. Уменьшите число случаев или повторов или поднимите предел"
    )]
    OverCostCap {
        /// The profile.
        profile: String,
        /// The worst-case cost, with its currency.
        amount: String,
        /// The cap, with the profile's currency.
        cap: String,
    },
    /// A remote profile has no prices, so its cost cannot be bounded.
    #[error(
        "у профиля «{profile}» не указаны цены за токены (price_input_per_million и \
         price_output_per_million), поэтому стоимость оценки не ограничить; ничего не отправлено"
    )]
    NoPrices {
        /// The profile.
        profile: String,
    },
    /// A profile needs an API key and has none; nothing was sent.
    #[error("для профиля «{profile}» не задан ключ доступа; ничего не отправлено")]
    NoApiKey {
        /// The profile.
        profile: String,
    },
    /// No stored run has this id.
    #[error("прогона оценки «{id}» нет в базе{}", latest_text(latest))]
    RunNotFound {
        /// The id asked for.
        id: String,
        /// The latest stored runs, newest first.
        latest: Vec<String>,
    },
    /// The drafts database could not be opened or used.
    #[error("{}", .0.message_ru())]
    Store(#[from] zayavka_store::StoreError),
    /// A stored run cannot be read back (written by another version, or changed by hand).
    #[error("прогон «{run}» в базе не читается: {message}")]
    BadCassette {
        /// The run.
        run: String,
        /// What is wrong.
        message: String,
    },
    /// What a run would send could not be written to the export folder.
    #[error("не удалось записать «{}»: {message}", path.display())]
    Export {
        /// The file or folder.
        path: PathBuf,
        /// What went wrong, in Russian.
        message: String,
    },
    /// The review sheet or the reviewer's marks could not be written or read.
    #[error("лист проверки «{}»: {message}", path.display())]
    Sheet {
        /// The file.
        path: PathBuf,
        /// What went wrong, in Russian.
        message: String,
    },
}

fn latest_text(latest: &[String]) -> String {
    if latest.is_empty() {
        "; прогонов ещё не было — запустите оценку с отправкой".to_owned()
    } else {
        format!("; последние прогоны: {}", latest.join(", "))
    }
}

impl EvalError {
    /// What happened and what to do, in Russian.
    pub fn message_ru(&self) -> String {
        self.to_string()
    }
}

impl crate::error::EngineError for EvalError {
    fn kind(&self) -> crate::error::ErrorKind {
        use crate::error::ErrorKind;
        match self {
            EvalError::CasesNotFound { .. }
            | EvalError::NoCases { .. }
            | EvalError::InvalidCase { .. } => ErrorKind::Read,
            EvalError::UnknownCase { .. }
            | EvalError::UnknownPrompt { .. }
            | EvalError::OverCostCap { .. }
            | EvalError::NoPrices { .. } => ErrorKind::InvalidRequest,
            EvalError::Settings { .. } | EvalError::NoProfile => ErrorKind::Config,
            EvalError::NoApiKey { .. } => ErrorKind::Key,
            EvalError::RunNotFound { .. } => ErrorKind::NotFound,
            EvalError::Store(_) => ErrorKind::Store,
            EvalError::BadCassette { .. } => ErrorKind::Damaged,
            EvalError::Sheet { .. } | EvalError::Export { .. } => ErrorKind::Write,
        }
    }

    fn message_ru(&self) -> String {
        EvalError::message_ru(self)
    }
}
