//! What planning a batch and running it share: the run's settings and the row limit, the
//! error of either, the stored form of a file's rows, and the estimate of one row's cost.

use std::num::{NonZeroU32, NonZeroUsize};

use zayavka_core::{InputErrors, ResidentInput, render_prompt, request_draft_schema};
use zayavka_store::{NewBatchRow, StoreError};

use super::file::{BatchFile, RowError};
use crate::config::{Pricing, ProviderOverrides};
use crate::draft::{MAX_TOKENS, ModelSettings, SessionClients, chat_request};

/// Room for the re-ask instruction in the cost estimate, in tokens: the instruction lists at
/// most ten findings, far below this.
const REASK_ALLOWANCE_TOKENS: u64 = 2_000;

/// The most rows a batch file may have unless the activist raises the limit on purpose: far
/// more than a building has flats, and few enough that a file saved by mistake (a whole
/// register, a log) never becomes thousands of paid requests.
pub const DEFAULT_MAX_ROWS: u32 = 5_000;

/// How a batch runs.
#[derive(Debug, Clone)]
pub struct BatchSettings {
    /// How many rows are sent at once; `None` leaves the service's own default
    /// ([`crate::config::ProviderSettings::default_concurrency`]: one for GigaChat's
    /// individuals and for a server on this computer, four otherwise).
    pub concurrency: Option<NonZeroUsize>,
    /// At most this many requests a minute, over all rows.
    pub rpm: Option<NonZeroU32>,
    /// Stop sending before the priced total of the batch would pass this amount.
    pub max_cost: Option<f64>,
    /// Draft every row without a model.
    pub offline: bool,
    /// Provider settings for this run, above the environment and the configuration file.
    pub overrides: ProviderOverrides,
    /// Start a new batch even when one was run from this file before.
    pub new_batch: bool,
    /// Continue this very batch (by its number) rather than the one last run from the file:
    /// a front end that offers «continue batch 3» means batch 3 even when a later batch was
    /// started from the same file.
    pub batch_number: Option<u32>,
    /// Refuse a file with more data rows than this ([`DEFAULT_MAX_ROWS`]
    /// unless raised on purpose).
    pub max_rows: u32,
    /// The front end's session: a batch run from the desktop app uses the client (and
    /// GigaChat's access token) its drafts use, so the session exchanges a token once per
    /// lifetime however many drafts and batches it sends.
    pub session: SessionClients,
}

impl BatchSettings {
    /// The settings of a run with everything at its default: the service's own number of rows
    /// at once, no rate limit or cost cap, the configured provider, the batch last run from the
    /// same file continued, a client of its own.
    pub fn new(offline: bool) -> BatchSettings {
        BatchSettings {
            concurrency: None,
            rpm: None,
            max_cost: None,
            offline,
            overrides: ProviderOverrides::default(),
            new_batch: false,
            batch_number: None,
            max_rows: DEFAULT_MAX_ROWS,
            session: SessionClients::new(),
        }
    }
}

/// Why a batch could not run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BatchError {
    /// The drafts database could not be opened or used.
    #[error("{}", .0.message_ru())]
    Store(#[from] StoreError),
    /// The provider settings or the key could not be resolved; nothing was sent.
    #[error("{0}")]
    Settings(String),
    /// A cost cap was asked for, but the profile has no prices to estimate with.
    #[error(
        "ограничение стоимости нельзя соблюсти: в профиле провайдера не указаны цены за токены \
         (price_input_per_million и price_output_per_million)"
    )]
    NoPrices,
    /// The cost cap is not a positive amount.
    #[error("ограничение стоимости должно быть положительным числом")]
    InvalidCap,
    /// No batch has this number.
    #[error("пакета «{0}» нет: проверьте номер в списке пакетов")]
    NotFound(String),
    /// The file has more rows than a batch may have unless the limit is raised on purpose.
    #[error(
        "в файле {} строк с данными, а в одном пакете — не больше {}: каждая строка — \
         отдельное обращение к модели. Проверьте, тот ли это файл; разделите его на части или, \
         если столько заявок действительно нужно, поднимите предел",
        zayavka_core::group_digits(*rows),
        zayavka_core::group_digits(*limit)
    )]
    TooManyRows {
        /// The file's data rows.
        rows: u32,
        /// The limit in force.
        limit: u32,
    },
}

impl BatchError {
    /// What happened and what to do, in Russian.
    pub fn message_ru(&self) -> String {
        self.to_string()
    }
}

/// The errors of one row, in the shape the file reader reports them.
pub(crate) fn row_errors(errors: &InputErrors) -> Vec<RowError> {
    errors
        .iter()
        .map(|error| RowError {
            field: error.field_name(),
            code: error.code(),
            message: error.message_ru(),
        })
        .collect()
}

/// The stored form of the file's rows: every row, invalid ones with no checked input, so that
/// the batch keeps all of them and `status` can report the invalid ones too.
pub(crate) fn new_rows(file: &BatchFile) -> Vec<NewBatchRow> {
    file.rows()
        .iter()
        .map(|row| NewBatchRow {
            row_number: row.row_number(),
            raw_input_json: serde_json::to_string(row.raw()).expect("a raw input serialises"),
            checked_input_json: row.checked().ok().map(|input| {
                serde_json::to_string(&input.to_raw()).expect("a checked input serialises")
            }),
            header_json: Some(serde_json::to_string(row.header()).expect("a header serialises")),
        })
        .collect()
}

/// An upper bound of one row's cost: every request the draft may make (the first and each
/// re-ask) with all it sends counted as tokens byte for byte (a token is at least one byte),
/// plus the previous answer and the re-ask instruction, and `max_tokens` of output each time.
pub fn row_cost_estimate(
    input: &ResidentInput,
    settings: &ModelSettings,
    pricing: &Pricing,
) -> f64 {
    let provider = &settings.provider;
    let schema = request_draft_schema();
    let prompt = render_prompt(input, provider.schema_mode, schema);
    let request = chat_request(&prompt, &provider.model, provider.schema_mode, schema);
    let request_bytes = serde_json::to_vec(&request).map_or(0, |bytes| bytes.len()) as u64;
    let calls = u64::from(settings.max_reasks) + 1;
    let input_tokens = request_bytes + u64::from(MAX_TOKENS) + REASK_ALLOWANCE_TOKENS;
    let per_call = input_tokens as f64 * pricing.input_per_million / 1e6
        + f64::from(MAX_TOKENS) * pricing.output_per_million / 1e6;
    calls as f64 * per_call
}

impl crate::error::EngineError for BatchError {
    fn kind(&self) -> crate::error::ErrorKind {
        match self {
            BatchError::Store(_) => crate::error::ErrorKind::Store,
            BatchError::NotFound(_) => crate::error::ErrorKind::NotFound,
            BatchError::TooManyRows { .. } => crate::error::ErrorKind::BatchTooLarge,
            _ => crate::error::ErrorKind::Batch,
        }
    }

    fn message_ru(&self) -> String {
        BatchError::message_ru(self)
    }

    fn store_code(&self) -> Option<zayavka_store::StoreErrorCode> {
        match self {
            BatchError::Store(error) => Some(error.code()),
            _ => None,
        }
    }
}
