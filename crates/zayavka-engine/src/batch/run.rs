//! Running a batch: every valid row of a file drafted once, with bounded concurrency, an
//! optional requests-per-minute limit shared by all rows, a pause for the whole batch when the
//! provider answers `429`, and an optional cap on the priced cost — resumable after a crash,
//! Ctrl-C or `kill -9` (ADR 14).
//!
//! Running the same file again (by its path, or its bytes when it was moved) finds the same
//! stored batch, and its rows are recognised by their input ([`super::plan`]). A row's draft is created in the transaction that claims the row, and a row is
//! marked done only after its draft has finished; every state a kill can leave behind is one of
//! those the next run knows what to do with:
//!
//! | row state          | draft        | next run                                        |
//! |--------------------|--------------|-------------------------------------------------|
//! | pending            | none         | claimed and sent                                |
//! | pending            | pending      | sent (the earlier call was interrupted)         |
//! | pending            | finished     | marked from the draft's outcome, not sent again |
//! | failed_retryable   | failed       | set back to pending and sent again              |
//! | done or failed     | any          | not run                                         |

use std::num::{NonZeroU32, NonZeroUsize};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use serde::Serialize;
use zayavka_core::{
    FailureReason, Outcome, RawInput, ResidentInput, legal_catalogue, offline_request,
};
use zayavka_llm::{Attempt, CancellationToken};
use zayavka_store::{
    BatchFileUpdate, BatchRow as StoredRow, DraftId, DraftOutcome, NewBatch, RowState, Store,
    StoreError,
};

pub use super::common::{BatchError, BatchSettings, row_cost_estimate};
use super::common::{new_rows, row_errors};
use super::file::{BatchFile, InvalidRow};
use crate::config::ProviderOverrides;
use crate::draft::{DraftEvent, DraftRun, EnvironmentOverrides, ModelSettings};
use crate::paths::Paths;
use crate::secrets::SecretStore;

/// The first pause of the whole batch after the provider answered `429`; each further `429`
/// in a row doubles it, up to [`RATE_LIMIT_PAUSE_MAX`].
pub const RATE_LIMIT_PAUSE: Duration = Duration::from_secs(2);

/// The longest pause after repeated `429` answers.
pub const RATE_LIMIT_PAUSE_MAX: Duration = Duration::from_secs(60);

/// How far a run has got, reported when it starts and after each row: the one account of a
/// run's progress that every front end shows (issue 18), so none has to count rows in the
/// database itself.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct BatchProgress {
    /// The rows this run has to do.
    pub to_run: u32,
    /// How many of them are finished (or found finished).
    pub finished: u32,
    /// Of the finished rows, those with a request ready to check and file.
    pub ready: u32,
    /// … those whose request needs the resident's words.
    pub needs_user: u32,
    /// … those refused: the model's answer, or an input that no longer passes the checks.
    pub rejected: u32,
    /// … those that failed for a technical reason (never a judgement on the row).
    pub failed: u32,
    /// The HTTP requests this run has sent.
    pub sent: u64,
    /// Why the run is stopping, from the moment it decided to: no row starts after it.
    pub stopped: Option<StopReason>,
}

impl BatchProgress {
    fn count(&mut self, outcome: RowOutcome) {
        self.finished += 1;
        match outcome {
            RowOutcome::Ready => self.ready += 1,
            RowOutcome::NeedsUser => self.needs_user += 1,
            RowOutcome::Rejected => self.rejected += 1,
            RowOutcome::Failed => self.failed += 1,
        }
    }
}

/// Why a run stopped before every row was done.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The next row could have passed the cost cap.
    CostCap,
    /// The run was cancelled (Ctrl-C).
    Cancelled,
    /// The provider refused in a way every other row would meet too (the key, the quota, the
    /// schema mode, the settings), so nothing more was sent.
    ProviderRefused,
}

/// The totals of a batch, as a run leaves it or as `status` reads it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BatchSummary {
    /// The batch's id, internal: people and file names use its number.
    pub batch_id: String,
    /// The batch's short number (0 when the file had no valid row and nothing was stored).
    pub batch_number: u32,
    /// The data rows of the file, valid or not.
    pub rows: u32,
    /// The rows that failed their checks and are never sent.
    pub invalid: Vec<InvalidRow>,
    /// Rows whose request is ready.
    pub ready: u32,
    /// Rows where the resident must change the description.
    pub needs_user: u32,
    /// Rows whose model output could not be used.
    pub rejected: u32,
    /// Rows that ended in a technical failure.
    pub failed: u32,
    /// Of the failed rows, those a later run sends again.
    pub failed_retryable: u32,
    /// Valid rows not finished yet: never run, interrupted, or held back by the cost cap.
    pub unfinished: u32,
    /// The HTTP requests this run sent (0 for `status`).
    pub sent: u64,
    /// Tokens over every attempt of the batch, all runs together.
    pub tokens: u64,
    /// The priced cost of the batch, all runs together, when the profile has prices.
    pub cost: Option<f64>,
    /// The currency of [`BatchSummary::cost`] (`RUB`, `USD`), as the batch's first priced run
    /// recorded it; `None` when it named none (batches stored before it was recorded, or
    /// prices without a currency).
    pub currency: Option<String>,
    /// The largest upper bound this run estimated for one row's cost, which the cost cap is
    /// checked with; `None` when nothing was priced.
    pub row_cost_bound: Option<f64>,
    /// Why this run stopped early, if it did.
    pub stopped: Option<StopReason>,
    /// Stored rows that are not in the file as last run: rows taken out of it, and the earlier
    /// versions of changed rows (their drafts stay).
    pub no_longer_in_file: u32,
}

impl BatchSummary {
    /// A file of `rows` rows of which nothing was sent: no batch stored, only the rows refused
    /// before sending (`invalid`).
    fn nothing_sent(rows: u32, invalid: Vec<InvalidRow>) -> BatchSummary {
        BatchSummary {
            batch_id: String::new(),
            batch_number: 0,
            rows,
            invalid,
            ready: 0,
            needs_user: 0,
            rejected: 0,
            failed: 0,
            failed_retryable: 0,
            unfinished: 0,
            sent: 0,
            tokens: 0,
            cost: None,
            currency: None,
            row_cost_bound: None,
            stopped: None,
            no_longer_in_file: 0,
        }
    }

    /// Whether every valid row finished: nothing failed and nothing is left to run.
    pub fn complete(&self) -> bool {
        self.failed == 0 && self.unfinished == 0
    }

    /// How many rows passed their checks.
    pub fn valid(&self) -> u32 {
        self.rows.saturating_sub(self.invalid.len() as u32)
    }

    /// What became of every row of the file, in two sentences (issue 31): how many rows the
    /// file has, how many were refused before sending (their numbers; each row's reason is in
    /// its own line), drafted by this run (`drafted_now`, when a run just ended) or before it,
    /// and not drafted yet; then the outcomes over the whole batch. The same words in `batch
    /// status` and on the app's «Пакет».
    pub fn rows_ru(&self, drafted_now: Option<u32>) -> String {
        use zayavka_core::group_digits;
        let invalid = self.invalid.len() as u32;
        let drafted = self.valid().saturating_sub(self.unfinished);
        let mut parts = Vec::new();
        if invalid > 0 {
            let mut rows: Vec<String> = self
                .invalid
                .iter()
                .take(ROWS_NAMED)
                .map(|row| row.row.to_string())
                .collect();
            if self.invalid.len() > ROWS_NAMED {
                rows.push(format!(
                    "и ещё {}",
                    group_digits(invalid - ROWS_NAMED as u32)
                ));
            }
            parts.push(format!(
                "с ошибками и не отправлены — {} ({} {})",
                group_digits(invalid),
                if invalid == 1 {
                    "строка"
                } else {
                    "строки"
                },
                rows.join(", ")
            ));
        }
        match drafted_now {
            Some(now) => {
                parts.push(format!("составлены в этот раз — {}", group_digits(now)));
                let before = drafted.saturating_sub(now);
                if before > 0 {
                    parts.push(format!(
                        "составлены раньше и не отправлялись снова — {}",
                        group_digits(before)
                    ));
                }
            }
            None => parts.push(format!("составлены — {}", group_digits(drafted))),
        }
        if self.unfinished > 0 {
            parts.push(format!(
                "ещё не составлены — {}",
                group_digits(self.unfinished)
            ));
        }
        format!(
            "В файле {} {}: {}. Итог по пакету: готовы {}, нужно уточнить описание {}, ответ \
             модели не подошёл {}, технический сбой {}.",
            group_digits(self.rows),
            rows_word(self.rows),
            parts.join("; "),
            group_digits(self.ready),
            group_digits(self.needs_user),
            group_digits(self.rejected),
            group_digits(self.failed)
        )
    }
}

/// How many refused rows [`BatchSummary::rows_ru`] names before it says how many more.
const ROWS_NAMED: usize = 12;

/// «строка», «строки» or «строк» after `count`.
fn rows_word(count: u32) -> &'static str {
    match (count % 10, count % 100) {
        (1, rest) if rest != 11 => "строка",
        (2..=4, rest) if !(12..=14).contains(&rest) => "строки",
        _ => "строк",
    }
}

/// The row state a finished draft leaves its row in.
fn row_state(outcome: &Outcome) -> RowState {
    match outcome {
        Outcome::Failed(failure) => failed_state(failure.reason, failure.retryable),
        _ => RowState::Done,
    }
}

/// A technical failure is never a judgement on the row, so most are tried again on the next
/// run: transient ones, and those the resident fixes in the settings (the key, the quota, the
/// schema mode). Only a request the server refused as malformed, or an answer over the size
/// cap, would fail the same way again.
fn failed_state(reason: FailureReason, retryable: bool) -> RowState {
    if retryable {
        return RowState::FailedRetryable;
    }
    match reason {
        FailureReason::BadRequest | FailureReason::ResponseTooLarge => RowState::Failed,
        _ => RowState::FailedRetryable,
    }
}

/// What every row task shares.
struct Shared {
    store: Mutex<Store>,
    batch_id: String,
    model: Option<ModelSettings>,
    /// One HTTP client for every row, when the settings make one.
    client: Option<zayavka_llm::Client>,
    cancel: CancellationToken,
    limiter: Option<governor::DefaultDirectRateLimiter>,
    /// The pause of the whole batch after a `429`.
    pause: Mutex<RatePause>,
    /// The cost cap's bookkeeping: what the batch has cost, and what rows in flight may cost.
    budget: Mutex<CostBudget>,
    stopped: Mutex<Option<StopReason>>,
    sent: AtomicU64,
    /// At most `concurrency` rows talk to the provider at once. A row holds one of these only
    /// from its turn to its answer: it claims its draft before and stores its result after, so
    /// that the next row's request goes out the moment an answer arrives instead of waiting for
    /// the store (ADR 14).
    sending: Arc<tokio::sync::Semaphore>,
    /// The index, in this run's order, of the row whose turn it is to queue for `sending`.
    queue: tokio::sync::watch::Sender<u64>,
}

/// The whole batch's pause after the provider answered `429`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct RatePause {
    /// No request is sent before this instant.
    not_before: Option<tokio::time::Instant>,
    /// The pause the next `429` sets.
    next: Duration,
}

impl RatePause {
    fn new() -> RatePause {
        RatePause {
            not_before: None,
            next: RATE_LIMIT_PAUSE,
        }
    }

    /// After a row: a `429` pauses everything from `now` (never shortening a pause already
    /// set) and makes the next pause longer; a row without one resets the length.
    fn after_row(&mut self, rate_limited: bool, now: tokio::time::Instant) {
        if rate_limited {
            let until = now + self.next;
            self.not_before = Some(self.not_before.map_or(until, |current| current.max(until)));
            self.next = (self.next * 2).min(RATE_LIMIT_PAUSE_MAX);
        } else {
            self.next = RATE_LIMIT_PAUSE;
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct CostBudget {
    cap: Option<f64>,
    spent: f64,
    reserved: f64,
    /// The largest estimate seen, for the summary.
    largest_estimate: Option<f64>,
}

impl CostBudget {
    /// Reserves `estimate` if the spent, the reserved and it stay within the cap.
    fn reserve(&mut self, estimate: f64) -> bool {
        self.largest_estimate = Some(self.largest_estimate.map_or(estimate, |l| l.max(estimate)));
        let Some(cap) = self.cap else {
            return true;
        };
        if self.spent + self.reserved + estimate > cap {
            return false;
        }
        self.reserved += estimate;
        true
    }

    /// Replaces a reservation with what the row really cost.
    fn settle(&mut self, estimate: f64, actual: f64) {
        if self.cap.is_some() {
            self.reserved = (self.reserved - estimate).max(0.0);
        }
        self.spent += actual;
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Shared {
    fn stop(&self, reason: StopReason) {
        lock(&self.stopped).get_or_insert(reason);
    }

    fn is_stopped(&self) -> bool {
        lock(&self.stopped).is_some() || self.cancel.is_cancelled()
    }

    /// Waits out a `429` pause and the requests-per-minute limiter; `false` when cancelled.
    async fn wait_for_turn(&self) -> bool {
        loop {
            let until = lock(&self.pause).not_before;
            match until {
                Some(until) if until > tokio::time::Instant::now() => {
                    tokio::select! {
                        () = tokio::time::sleep_until(until) => {}
                        () = self.cancel.cancelled() => return false,
                    }
                }
                _ => break,
            }
        }
        if let Some(limiter) = &self.limiter {
            tokio::select! {
                () = limiter.until_ready() => {}
                () = self.cancel.cancelled() => return false,
            }
        }
        !self.cancel.is_cancelled()
    }

    /// Waits until the rows before the `index`-th have queued for the provider (or needed no
    /// request); `false` when cancelled first. The row then passes the turn on.
    async fn wait_for_queue_turn(&self, index: u64) -> bool {
        let mut turn = self.queue.subscribe();
        tokio::select! {
            reached = turn.wait_for(|&next| next == index) => reached.is_ok(),
            () = self.cancel.cancelled() => false,
        }
    }

    /// Gives the turn to the next row.
    fn pass_queue_turn(&self) {
        self.queue.send_modify(|next| *next += 1);
    }

    /// A row's attempt was answered `429` and the row will try again: the whole batch pauses
    /// at once, longer each time, rather than when that row is over.
    fn note_rate_limit(&self) {
        lock(&self.pause).after_row(true, tokio::time::Instant::now());
    }

    /// After a row: a last attempt answered `429` pauses the whole batch too (the ones that
    /// were tried again paused it as they happened); a row without any `429` resets the
    /// pause's length.
    fn note_rate_limits(&self, run: &DraftRun) {
        let attempts = run
            .record
            .as_ref()
            .map_or(&[][..], |record| record.attempts.as_slice());
        let limited = |attempt: &&Attempt| attempt.http_status == Some(429);
        let now = tokio::time::Instant::now();
        if attempts
            .iter()
            .filter(limited)
            .any(|attempt| attempt.retry_reason.is_none())
        {
            lock(&self.pause).after_row(true, now);
        } else if !attempts.iter().any(|attempt| limited(&attempt)) {
            lock(&self.pause).after_row(false, now);
        }
    }
}

/// How a finished row ended, as [`BatchProgress`] counts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RowOutcome {
    Ready,
    NeedsUser,
    Rejected,
    Failed,
}

impl RowOutcome {
    fn of(outcome: &Outcome) -> RowOutcome {
        match outcome {
            Outcome::Ready(_) => RowOutcome::Ready,
            Outcome::NeedsUser { .. } => RowOutcome::NeedsUser,
            Outcome::Rejected(_) | Outcome::InvalidInput(_) => RowOutcome::Rejected,
            Outcome::Failed(_) => RowOutcome::Failed,
        }
    }

    fn stored(outcome: DraftOutcome) -> RowOutcome {
        match outcome {
            DraftOutcome::Ready => RowOutcome::Ready,
            DraftOutcome::NeedsUser => RowOutcome::NeedsUser,
            DraftOutcome::Rejected | DraftOutcome::InvalidInput => RowOutcome::Rejected,
            _ => RowOutcome::Failed,
        }
    }
}

/// What became of one row in this run.
enum RowResult {
    /// It finished, or was found finished.
    Finished(RowOutcome),
    /// It was not run: the run stopped or was cancelled first.
    NotRun,
}

/// What a claimed row still needs.
enum Prepared {
    /// Nothing more: it finished, or was found finished.
    Done(RowResult),
    /// A request to the provider for this draft.
    Send {
        input: ResidentInput,
        draft_id: DraftId,
    },
}

/// Claims a row (its one draft) and finishes it at once when it needs no request: its checked
/// input no longer passes, an earlier run finished it, or the batch runs without a model.
fn prepare_row(shared: &Shared, row: &StoredRow) -> Result<Prepared, StoreError> {
    let batch_id = shared.batch_id.as_str();
    let row_number = row.row_number;
    let raw: RawInput = row
        .checked_input_json
        .as_deref()
        .and_then(|json| serde_json::from_str(json).ok())
        .unwrap_or_default();
    let input = match ResidentInput::parse(&raw) {
        Ok(input) => input,
        Err(_) => {
            // The stored checked input no longer passes today's checks: it is not sent.
            lock(&shared.store).finish_row(batch_id, row_number, RowState::Failed)?;
            return Ok(Prepared::Done(RowResult::Finished(RowOutcome::Rejected)));
        }
    };
    let claimed = lock(&shared.store).claim_row(batch_id, row_number)?;
    match claimed.outcome {
        DraftOutcome::Pending => {}
        DraftOutcome::Failed => {
            let store = lock(&shared.store);
            let draft = store.get_draft(claimed.draft_id)?;
            let reason = draft
                .as_ref()
                .and_then(|d| d.summary.reason.as_deref())
                .and_then(FailureReason::from_code)
                .unwrap_or(FailureReason::Unavailable);
            let retryable = draft.and_then(|d| d.retryable).unwrap_or(false);
            let state = failed_state(reason, retryable);
            if state == RowState::Failed {
                store.finish_row(batch_id, row_number, state)?;
                return Ok(Prepared::Done(RowResult::Finished(RowOutcome::Failed)));
            }
            // A failure a later run may fix: this is that later run.
            store.begin_retry(claimed.draft_id)?;
        }
        finished => {
            // An earlier run finished the draft and was stopped before it recorded the row's
            // state: the row is done and must not be sent again.
            let state = match finished {
                DraftOutcome::Failed => RowState::FailedRetryable,
                _ => RowState::Done,
            };
            lock(&shared.store).finish_row(batch_id, row_number, state)?;
            return Ok(Prepared::Done(RowResult::Finished(RowOutcome::stored(
                finished,
            ))));
        }
    }
    if shared.model.is_none() {
        let run = DraftRun {
            outcome: offline_request(&input, legal_catalogue()),
            record: None,
        };
        let finished = crate::draft::finished_run(&run, false, None);
        let state = row_state(&run.outcome);
        finished.store_with_row(
            &lock(&shared.store),
            claimed.draft_id,
            (batch_id, row_number, state),
        )?;
        return Ok(Prepared::Done(RowResult::Finished(RowOutcome::of(
            &run.outcome,
        ))));
    }
    Ok(Prepared::Send {
        input,
        draft_id: claimed.draft_id,
    })
}

/// Runs one row, the `index`-th of this run: claims it, and sends it unless its draft
/// already finished.
async fn run_row(shared: Arc<Shared>, row: StoredRow, index: u64) -> Result<RowResult, StoreError> {
    let row_number = row.row_number;
    let claiming = Arc::clone(&shared);
    let prepared = off_the_runtime(move || prepare_row(&claiming, &row))
        .await
        .inspect_err(|_| {
            // The rows after this one wait for its turn: they are stopped, not left waiting.
            shared.cancel.cancel();
        })?;
    // Rows queue for the provider in the file's order, whatever order their claims finish in:
    // one at a time they go out as the file lists them, and a stop leaves the file's first rows
    // sent, not a scattering.
    if !shared.wait_for_queue_turn(index).await {
        return Ok(RowResult::NotRun);
    }
    let (input, draft_id) = match prepared {
        Prepared::Send { input, draft_id } => (input, draft_id),
        Prepared::Done(result) => {
            shared.pass_queue_turn();
            return Ok(result);
        }
    };
    let sending = tokio::select! {
        permit = Arc::clone(&shared.sending).acquire_owned() => {
            permit.expect("the semaphore is never closed")
        }
        () = shared.cancel.cancelled() => return Ok(RowResult::NotRun),
    };
    shared.pass_queue_turn();
    let model = shared
        .model
        .as_ref()
        .expect("a row to send means the batch has a model");
    if shared.is_stopped() || !shared.wait_for_turn().await || shared.is_stopped() {
        return Ok(RowResult::NotRun);
    }
    let pricing = model.provider.pricing.as_ref();
    let estimate = pricing.map(|pricing| row_cost_estimate(&input, model, pricing));
    if let Some(estimate) = estimate
        && !lock(&shared.budget).reserve(estimate)
    {
        shared.stop(StopReason::CostCap);
        return Ok(RowResult::NotRun);
    }
    let run = crate::draft::draft_with_client(
        &input,
        model,
        shared.client.as_ref(),
        &shared.cancel,
        &|event| {
            if let DraftEvent::Waiting {
                http_status: Some(429),
                ..
            } = event
            {
                shared.note_rate_limit();
            }
        },
    )
    .await;
    // The answer is in: the next row may talk to the provider while this one is stored.
    drop(sending);
    shared
        .sent
        .fetch_add(u64::from(run.attempt_count()), Ordering::SeqCst);
    let actual = run
        .record
        .as_ref()
        .and_then(|record| record.cost)
        .unwrap_or(0.0);
    lock(&shared.budget).settle(estimate.unwrap_or(0.0), actual);
    if let Outcome::Failed(failure) = &run.outcome
        && failure.reason == FailureReason::Cancelled
        && shared.cancel.is_cancelled()
    {
        // Interrupted, not failed: the draft stays pending and the next run sends it.
        return Ok(RowResult::NotRun);
    }
    shared.note_rate_limits(&run);
    if let Outcome::Failed(failure) = &run.outcome
        && failure.reason.halts_further_requests()
    {
        shared.stop(StopReason::ProviderRefused);
    }
    let outcome = RowOutcome::of(&run.outcome);
    let storing = Arc::clone(&shared);
    off_the_runtime(move || {
        // Serialised before the store is locked, so rows only queue for the write itself.
        let pricing = storing
            .model
            .as_ref()
            .and_then(|model| model.provider.pricing.as_ref());
        let finished = crate::draft::finished_run(&run, true, pricing);
        let state = row_state(&run.outcome);
        finished.store_with_row(
            &lock(&storing.store),
            draft_id,
            (storing.batch_id.as_str(), row_number, state),
        )
    })
    .await?;
    Ok(RowResult::Finished(outcome))
}

/// Runs a row's work with the store on a blocking thread. The store is one connection behind
/// a mutex and a write takes milliseconds (its commit most of them): a row waiting for it on a
/// runtime worker would stall the worker, and with it the next rows' requests, which would then
/// go out only after a whole wave of answers had been stored (ADR 14).
async fn off_the_runtime<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> T {
    match tokio::task::spawn_blocking(work).await {
        Ok(value) => value,
        Err(error) => std::panic::resume_unwind(error.into_panic()),
    }
}

/// A new batch's id: unique (the file's hash, its path and the moment), internal; people see
/// the batch's number.
fn new_batch_id(file: &BatchFile) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_nanos());
    let path = file
        .source_path()
        .map(|path| path.to_string_lossy().into_owned())
        .unwrap_or_default();
    zayavka_core::sha256_hex(format!("{}\n{path}\n{nanos}", file.content_sha256()).as_bytes())
}

/// Runs a batch file: stores it, or continues the batch last run from the same file (its rows
/// recognised by their input, so that a corrected row is sent and a finished one is not), then
/// drafts every row still to do. Every row was checked when the file was read; a file
/// with no valid row sends nothing and is not stored.
pub async fn run_batch(
    file: &BatchFile,
    settings: &BatchSettings,
    paths: &Paths,
    secrets: &dyn SecretStore,
    environment: EnvironmentOverrides,
    cancel: &CancellationToken,
    progress: &dyn Fn(BatchProgress),
) -> Result<BatchSummary, BatchError> {
    super::plan::check_row_limit(file, settings)?;
    let invalid = file.invalid();
    let rows = file.rows().len() as u32;
    if file.valid_count() == 0 {
        return Ok(BatchSummary::nothing_sent(rows, invalid));
    }
    if settings
        .max_cost
        .is_some_and(|cap| !(cap.is_finite() && cap > 0.0))
    {
        return Err(BatchError::InvalidCap);
    }
    let store = crate::database::open_store(paths)?;
    let source_path = file
        .source_path()
        .map(|path| path.to_string_lossy().into_owned());
    let batch_id = match super::plan::existing_batch(&store, file, settings)? {
        Some(batch) => {
            // The file was run before: rows recognised by their input keep their drafts, and
            // only new and changed rows are stored to be sent (ADR 14).
            let update = BatchFileUpdate {
                file_name: file.file_name().to_owned(),
                source_path,
                content_sha256: file.content_sha256().to_owned(),
                row_count: rows,
            };
            store.sync_batch(&batch.id, &update, &new_rows(file))?;
            batch.id
        }
        None => {
            let batch_id = new_batch_id(file);
            let new_batch = NewBatch {
                id: batch_id.clone(),
                content_sha256: file.content_sha256().to_owned(),
                source_path,
                file_name: file.file_name().to_owned(),
                row_count: rows,
                settings_json: serde_json::json!({
                    "concurrency": settings.concurrency.map(NonZeroUsize::get),
                    "rpm": settings.rpm.map(NonZeroU32::get),
                    "max_cost": settings.max_cost,
                    "offline": settings.offline,
                    // The currency the batch's costs are priced in, for `status` later.
                    "currency": (!settings.offline)
                        .then(|| pricing_currency(paths, &settings.overrides, &environment))
                        .flatten(),
                })
                .to_string(),
            };
            store.ensure_batch(&new_batch, &new_rows(file))?;
            batch_id
        }
    };
    let mut to_run = Vec::new();
    for row in store.rows_to_run(&batch_id)? {
        if row.checked_input_json.is_none() {
            // An invalid row is failed for good the first time a run sees it.
            store.finish_row(&batch_id, row.row_number, RowState::Failed)?;
        } else {
            to_run.push(row);
        }
    }
    // The settings and the key are only needed when something is left to send, so a finished
    // batch reports its totals even where no provider is configured.
    let model = if settings.offline || to_run.is_empty() {
        None
    } else {
        let model = crate::draft::model_settings(&settings.overrides, paths, secrets, environment)
            .map_err(|failure| BatchError::Settings(failure.detail))?;
        if settings.max_cost.is_some() && model.provider.pricing.is_none() {
            return Err(BatchError::NoPrices);
        }
        Some(model)
    };
    let spent = store
        .batch_status(&batch_id)?
        .and_then(|status| status.cost)
        .unwrap_or(0.0);
    let limiter = match (&model, settings.rpm) {
        // One request every 60/rpm seconds, with no burst, so no minute ever sees more.
        (Some(_), Some(rpm)) => Some(governor::RateLimiter::direct(
            governor::Quota::per_minute(rpm).allow_burst(NonZeroU32::MIN),
        )),
        _ => None,
    };
    let client = model
        .as_ref()
        .and_then(|model| settings.session.client_for(model));
    let concurrency = match (settings.concurrency, &model) {
        (Some(concurrency), _) => concurrency,
        (None, Some(model)) => model.provider.default_concurrency(),
        (None, None) => NonZeroUsize::MIN,
    };
    let shared = Arc::new(Shared {
        store: Mutex::new(store),
        batch_id: batch_id.clone(),
        model,
        client,
        cancel: cancel.clone(),
        limiter,
        pause: Mutex::new(RatePause::new()),
        budget: Mutex::new(CostBudget {
            cap: settings.max_cost,
            spent,
            reserved: 0.0,
            largest_estimate: None,
        }),
        stopped: Mutex::new(None),
        sent: AtomicU64::new(0),
        sending: Arc::new(tokio::sync::Semaphore::new(concurrency.get())),
        queue: tokio::sync::watch::Sender::new(0),
    });
    let mut report = BatchProgress {
        to_run: to_run.len() as u32,
        ..BatchProgress::default()
    };
    progress(report);
    // Rows in hand: those talking to the provider, and as many again claimed and waiting for
    // their turn or being stored, so that a turn never waits for a claim.
    let semaphore = Arc::new(tokio::sync::Semaphore::new(
        concurrency.get().saturating_mul(2),
    ));
    let mut tasks = tokio::task::JoinSet::new();
    let mut first_error: Option<StoreError> = None;
    let mut handle = |result: Result<Result<RowResult, StoreError>, tokio::task::JoinError>,
                      shared: &Shared,
                      report: &mut BatchProgress| {
        match result {
            Ok(Ok(RowResult::Finished(outcome))) => report.count(outcome),
            Ok(Ok(RowResult::NotRun)) => {}
            Ok(Err(error)) => {
                shared.cancel.cancel();
                first_error.get_or_insert(error);
            }
            Err(join_error) => std::panic::resume_unwind(join_error.into_panic()),
        }
        report.sent = shared.sent.load(Ordering::SeqCst);
        report.stopped = *lock(&shared.stopped);
        progress(*report);
    };
    for (index, row) in (0u64..).zip(to_run) {
        let permit = tokio::select! {
            permit = Arc::clone(&semaphore).acquire_owned() => {
                permit.expect("the semaphore is never closed")
            }
            () = cancel.cancelled() => break,
        };
        if shared.is_stopped() {
            break;
        }
        let task_shared = Arc::clone(&shared);
        tasks.spawn(async move {
            let _permit = permit;
            run_row(task_shared, row, index).await
        });
        while let Some(result) = tasks.try_join_next() {
            handle(result, &shared, &mut report);
        }
    }
    while let Some(result) = tasks.join_next().await {
        handle(result, &shared, &mut report);
    }
    if let Some(error) = first_error {
        return Err(error.into());
    }
    if cancel.is_cancelled() {
        shared.stop(StopReason::Cancelled);
    }
    let stopped = *lock(&shared.stopped);
    if report.stopped != stopped {
        // A cancellation is known only now: the last report says so too.
        report.stopped = stopped;
        progress(report);
    }
    let row_cost_bound = lock(&shared.budget).largest_estimate;
    let sent = shared.sent.load(Ordering::SeqCst);
    let store = lock(&shared.store);
    let mut summary = batch_summary(&store, &batch_id)?;
    summary.sent = sent;
    summary.stopped = stopped;
    summary.row_cost_bound = row_cost_bound;
    Ok(summary)
}

/// The currency of the configured profile's prices, read from the configuration alone (no
/// keyring): `None` when nothing is configured or priced in a named currency.
fn pricing_currency(
    paths: &Paths,
    overrides: &ProviderOverrides,
    environment: &EnvironmentOverrides,
) -> Option<String> {
    let config = crate::config::Config::load(&paths.config_file()).ok()?;
    let overrides = overrides.clone().or(environment.provider.clone());
    crate::config::resolve_provider(&config, &overrides)
        .ok()??
        .pricing?
        .currency
}

/// The totals of a stored batch, read from the database: rows by their draft's outcome, the
/// invalid rows with their errors, tokens and cost.
pub fn batch_summary(store: &Store, batch_id: &str) -> Result<BatchSummary, BatchError> {
    let Some(batch) = store.batch(batch_id)? else {
        return Err(BatchError::NotFound(batch_id.to_owned()));
    };
    let status = store
        .batch_status(batch_id)?
        .ok_or_else(|| BatchError::NotFound(batch_id.to_owned()))?;
    let rows = store.batch_rows(batch_id)?;
    let mut summary = BatchSummary {
        batch_id: batch_id.to_owned(),
        batch_number: batch.number,
        rows: batch.row_count,
        invalid: Vec::new(),
        ready: status.ready,
        needs_user: status.needs_user,
        rejected: status.rejected + status.invalid_input,
        failed: status.failed,
        failed_retryable: status.failed_retryable_rows,
        unfinished: 0,
        sent: 0,
        tokens: status.total_tokens,
        cost: status.cost,
        currency: serde_json::from_str::<serde_json::Value>(&batch.settings_json)
            .ok()
            .and_then(|settings| settings.get("currency")?.as_str().map(str::to_owned)),
        row_cost_bound: None,
        stopped: None,
        no_longer_in_file: status.removed_rows,
    };
    for row in &rows {
        if row.checked_input_json.is_none() {
            let raw: RawInput = serde_json::from_str(&row.raw_input_json).unwrap_or_default();
            let errors = ResidentInput::parse(&raw)
                .err()
                .map(|errors| row_errors(&errors))
                .unwrap_or_default();
            summary.invalid.push(InvalidRow {
                row: row.file_row.unwrap_or(row.row_number),
                errors,
            });
        } else if row.state == RowState::Pending {
            // Never run, interrupted (its draft pending), or held back by the cost cap.
            summary.unfinished += 1;
        }
    }
    Ok(summary)
}

/// One stored batch as `batch list` shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BatchListItem {
    /// The batch's short number.
    pub number: u32,
    /// The batch's id, internal.
    pub batch_id: String,
    /// The file's name as last run.
    pub file_name: String,
    /// The file's path as last run, when it was run from one.
    pub source_path: Option<String>,
    /// When it was first run, RFC 3339.
    pub created_at: String,
    /// When it was last run, RFC 3339.
    pub updated_at: String,
    /// The file's data rows as last run.
    pub rows: u32,
    /// Rows whose request is ready.
    pub ready: u32,
    /// Rows where the description must be changed, or whose model answer could not be used.
    pub needs_attention: u32,
    /// Rows that failed for a technical reason.
    pub failed: u32,
    /// Valid rows not drafted yet.
    pub unfinished: u32,
    /// Rows that failed their checks.
    pub invalid: u32,
}

impl BatchListItem {
    /// Whether every valid row has an outcome and none failed.
    pub fn complete(&self) -> bool {
        self.failed == 0 && self.unfinished == 0
    }

    /// The file the batch was last run from, when it is still there, so that the batch can be
    /// continued from it without choosing it again.
    pub fn source_file(&self) -> Option<PathBuf> {
        existing_file(self.source_path.as_deref())
    }
}

/// `path` when it names a file that is there.
pub(crate) fn existing_file(path: Option<&str>) -> Option<PathBuf> {
    path.map(PathBuf::from).filter(|path| path.is_file())
}

/// Every stored batch, the most recently created first, with its totals.
pub fn list_batches(store: &Store) -> Result<Vec<BatchListItem>, BatchError> {
    store
        .list_batches()?
        .into_iter()
        .map(|batch| {
            let summary = batch_summary(store, &batch.id)?;
            Ok(BatchListItem {
                number: batch.number,
                batch_id: batch.id,
                file_name: batch.file_name,
                source_path: batch.source_path,
                created_at: batch.created_at.to_string(),
                updated_at: batch.updated_at.to_string(),
                rows: batch.row_count,
                ready: summary.ready,
                needs_attention: summary.needs_user + summary.rejected,
                failed: summary.failed,
                unfinished: summary.unfinished,
                invalid: summary.invalid.len() as u32,
            })
        })
        .collect()
}

/// The form of a batch export.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ExportFormat {
    /// One text file per row with a request: the text to file.
    Txt,
    /// One JSON Lines file for the batch, a line per row.
    Jsonl,
    /// One CSV file for the batch (UTF-8 with a byte order mark, so Excel reads it), a line per
    /// row.
    Csv,
}

/// What an export wrote.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExportReport {
    /// The files written.
    pub files: Vec<std::path::PathBuf>,
    /// The rows exported.
    pub rows: u32,
    /// For text, the rows left out because they have no request.
    pub without_request: Vec<u32>,
}

/// Why an export failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExportError {
    /// The batch could not be read.
    #[error("{}", .0.message_ru())]
    Batch(#[from] BatchError),
    /// A stored draft could not be read back.
    #[error("{}", .0.message_ru())]
    Draft(#[from] crate::drafts::DraftsError),
    /// A file could not be written.
    #[error("не удалось записать «{}»: {}. Укажите другую папку", .path.display(), crate::paths::io_error_ru(.error))]
    Write {
        /// The file or folder.
        path: std::path::PathBuf,
        /// The cause.
        error: std::io::Error,
    },
}

impl ExportError {
    /// What happened and what to do, in Russian.
    pub fn message_ru(&self) -> String {
        self.to_string()
    }
}

/// One row of a JSONL export: stable English codes, for scripts.
#[derive(Debug, Serialize)]
struct ExportedRow {
    row: u32,
    full_name: Option<String>,
    apartment: Option<String>,
    status: super::plan::RowStatus,
    draft_id: Option<DraftId>,
    reason: Option<String>,
    title: Option<String>,
    text: Option<String>,
}

/// One row of a CSV export: Russian column names and values, as a spreadsheet user reads them.
#[derive(Debug, Serialize)]
struct ExportedRowRu<'a> {
    #[serde(rename = "Строка")]
    row: u32,
    #[serde(rename = "ФИО")]
    full_name: &'a str,
    #[serde(rename = "Квартира")]
    apartment: &'a str,
    #[serde(rename = "Состояние")]
    status: &'static str,
    #[serde(rename = "Причина")]
    reason: &'a str,
    #[serde(rename = "Заголовок")]
    title: &'a str,
    #[serde(rename = "Текст заявки")]
    text: &'a str,
    #[serde(rename = "Черновик")]
    draft_id: String,
}

/// Writes a stored batch into `out_dir` (created if missing): for text, one file per row that
/// has a request (`row-0002.txt`, its filed text: the resident's latest edit or the assembled
/// request); for JSONL and CSV, one file for the whole batch (`batch-3.jsonl`, `batch-3.csv`),
/// a line per row of the file as last run with its status and, for a row that was refused,
/// needs the resident, was rejected or failed, the reason. The CSV speaks Russian (column
/// names and values); the JSONL keeps stable English codes for scripts.
pub fn export_batch(
    store: &Store,
    batch_id: &str,
    format: ExportFormat,
    out_dir: &std::path::Path,
) -> Result<ExportReport, ExportError> {
    let write_error = |path: &std::path::Path| {
        let path = path.to_path_buf();
        move |error| ExportError::Write { path, error }
    };
    let batch = store
        .batch(batch_id)
        .map_err(BatchError::from)?
        .ok_or_else(|| BatchError::NotFound(batch_id.to_owned()))?;
    crate::paths::create_output_dir(out_dir).map_err(write_error(out_dir))?;
    let rows = super::plan::batch_row_reports(store, batch_id)?;
    let mut report = ExportReport {
        files: Vec::new(),
        rows: 0,
        without_request: Vec::new(),
    };
    let mut exported = Vec::new();
    for row in rows {
        let draft = match row.draft_id {
            Some(id) => Some(crate::drafts::get(store, id)?),
            None => None,
        };
        let text = draft
            .as_ref()
            .map(crate::drafts::filed_text)
            .transpose()?
            .flatten();
        if format == ExportFormat::Txt {
            let Some(text) = text else {
                report.without_request.push(row.row);
                continue;
            };
            let path = out_dir.join(format!("row-{:04}.txt", row.row));
            crate::paths::replace_file(&path, (text + "\n").as_bytes())
                .map_err(write_error(&path))?;
            report.files.push(path);
            report.rows += 1;
            continue;
        }
        exported.push((row, text));
        report.rows += 1;
    }
    let stem = format!("batch-{}", batch.number);
    match format {
        ExportFormat::Txt => {}
        ExportFormat::Jsonl => {
            let path = out_dir.join(format!("{stem}.jsonl"));
            let mut text = String::new();
            for (row, request) in exported {
                let line = ExportedRow {
                    row: row.row,
                    full_name: row.full_name,
                    apartment: row.apartment,
                    status: row.status,
                    draft_id: row.draft_id,
                    reason: row.reason,
                    title: row.title,
                    text: request,
                };
                text.push_str(&serde_json::to_string(&line).expect("a row serialises"));
                text.push('\n');
            }
            crate::paths::replace_file(&path, text.as_bytes()).map_err(write_error(&path))?;
            report.files.push(path);
        }
        ExportFormat::Csv => {
            let path = out_dir.join(format!("{stem}.csv"));
            let mut writer = csv::Writer::from_writer(b"\xEF\xBB\xBF".to_vec());
            let csv_error = |error: csv::Error| std::io::Error::other(error.to_string());
            for (row, request) in &exported {
                let line = ExportedRowRu {
                    row: row.row,
                    full_name: row.full_name.as_deref().unwrap_or(""),
                    apartment: row.apartment.as_deref().unwrap_or(""),
                    status: row.status.label_ru(),
                    reason: row.reason_ru.as_deref().unwrap_or(""),
                    title: row.title.as_deref().unwrap_or(""),
                    text: request.as_deref().unwrap_or(""),
                    draft_id: row.draft_id.map_or_else(String::new, |id| id.to_string()),
                };
                writer
                    .serialize(line)
                    .map_err(csv_error)
                    .map_err(write_error(&path))?;
            }
            let bytes = writer
                .into_inner()
                .map_err(|error| std::io::Error::other(error.to_string()))
                .map_err(write_error(&path))?;
            crate::paths::replace_file(&path, &bytes).map_err(write_error(&path))?;
            report.files.push(path);
        }
    }
    Ok(report)
}

impl crate::error::EngineError for ExportError {
    fn kind(&self) -> crate::error::ErrorKind {
        // Whatever stopped it, the files of an export were not all written.
        crate::error::ErrorKind::Write
    }

    fn message_ru(&self) -> String {
        ExportError::message_ru(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(rows: u32, invalid: &[u32], outcomes: [u32; 4], unfinished: u32) -> BatchSummary {
        let [ready, needs_user, rejected, failed] = outcomes;
        let invalid = invalid
            .iter()
            .map(|&row| InvalidRow {
                row,
                errors: Vec::new(),
            })
            .collect();
        BatchSummary {
            batch_id: "b".to_owned(),
            batch_number: 1,
            ready,
            needs_user,
            rejected,
            failed,
            unfinished,
            ..BatchSummary::nothing_sent(rows, invalid)
        }
    }

    #[test]
    fn issue_31_the_summary_accounts_for_every_row_of_the_file() {
        // Five rows: one refused, two drafted before, two now.
        let five = summary(5, &[4], [3, 1, 0, 0], 0);
        assert_eq!(
            five.rows_ru(Some(2)),
            "В файле 5 строк: с ошибками и не отправлены — 1 (строка 4); составлены в этот раз \
             — 2; составлены раньше и не отправлялись снова — 2. Итог по пакету: готовы 3, \
             нужно уточнить описание 1, ответ модели не подошёл 0, технический сбой 0."
        );
        assert_eq!(
            five.rows_ru(None),
            "В файле 5 строк: с ошибками и не отправлены — 1 (строка 4); составлены — 4. Итог \
             по пакету: готовы 3, нужно уточнить описание 1, ответ модели не подошёл 0, \
             технический сбой 0."
        );
        // Many refused rows are named up to twelve; large counts are grouped.
        let refused: Vec<u32> = (2..=20_001).collect();
        let big = summary(21_000, &refused, [1000, 0, 0, 0], 0);
        let text = big.rows_ru(None);
        assert!(
            text.starts_with(
                "В файле 21\u{a0}000 строк: с ошибками и не отправлены — 20\u{a0}000 (строки 2, \
                 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, и ещё 19\u{a0}988); составлены — 1000."
            ),
            "{text}"
        );
        let unfinished = summary(3, &[], [1, 0, 0, 0], 2);
        assert!(
            unfinished
                .rows_ru(Some(1))
                .starts_with("В файле 3 строки: составлены в этот раз — 1; ещё не составлены — 2.")
        );
    }

    #[test]
    fn the_budget_never_reserves_past_the_cap() {
        let mut budget = CostBudget {
            cap: Some(1.0),
            spent: 0.25,
            reserved: 0.0,
            largest_estimate: None,
        };
        assert!(budget.reserve(0.5));
        assert!(!budget.reserve(0.5), "0.25 + 0.5 + 0.5 passes 1.0");
        budget.settle(0.5, 0.1);
        assert!((budget.spent - 0.35).abs() < 1e-12);
        assert!(budget.reserved.abs() < 1e-12);
        assert!(budget.reserve(0.6));
        let mut unlimited = CostBudget {
            cap: None,
            spent: 0.0,
            reserved: 0.0,
            largest_estimate: None,
        };
        assert!(unlimited.reserve(1e9));
    }

    #[test]
    fn a_429_pauses_the_batch_longer_each_time_and_a_clean_row_resets_the_length() {
        let start = tokio::time::Instant::now();
        let later = start + Duration::from_secs(30);
        let mut pause = RatePause::new();
        pause.after_row(false, start);
        assert_eq!(pause, RatePause::new());
        pause.after_row(true, later);
        assert_eq!(pause.not_before, Some(later + RATE_LIMIT_PAUSE));
        // A 429 seen by a row that started earlier never shortens a pause already set.
        pause.after_row(true, start);
        assert_eq!(pause.not_before, Some(later + RATE_LIMIT_PAUSE));
        assert_eq!(pause.next, RATE_LIMIT_PAUSE * 4);
        for _ in 0..10 {
            pause.after_row(true, later);
        }
        assert_eq!(pause.next, RATE_LIMIT_PAUSE_MAX);
        assert_eq!(pause.not_before, Some(later + RATE_LIMIT_PAUSE_MAX));
        pause.after_row(false, later);
        assert_eq!(pause.next, RATE_LIMIT_PAUSE);
        assert_eq!(pause.not_before, Some(later + RATE_LIMIT_PAUSE_MAX));
    }

    #[test]
    fn only_a_malformed_request_or_an_oversized_answer_fails_for_good() {
        for reason in FailureReason::ALL {
            let state = failed_state(*reason, false);
            let permanent = matches!(
                reason,
                FailureReason::BadRequest | FailureReason::ResponseTooLarge
            );
            assert_eq!(state == RowState::Failed, permanent, "{reason:?}");
            assert_eq!(failed_state(*reason, true), RowState::FailedRetryable);
        }
    }
}
