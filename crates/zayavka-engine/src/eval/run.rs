//! Running an evaluation, and replaying a stored one with no network.
//!
//! Every answer becomes a cassette in the store the moment it arrives, in a transaction of its
//! own, and is checked only from that cassette: a run and a later replay of it go through the
//! same function with the same bytes, so a replay with unchanged checks and cases reproduces
//! every verdict byte for byte. Ctrl-C cancels the calls in flight; the answers that arrived
//! before stay stored and are reported.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use zayavka_core::{
    Failure, FailureReason, ModelDraft, ModelReply, Outcome, RawInput, ResidentInput, SystemPrompt,
    decode_reply, evaluate_reply, legal_catalogue, request_draft_schema,
};
use zayavka_llm::{CancellationToken, Client, Usage};
use zayavka_store::{EvalCassette, NewEvalRun, Store};

use super::EvalError;
use super::case::{Case, load_cases};
use super::checks::check_answer;
use super::plan::PreparedEval;
use super::report::{CaseResult, EvalReport, ResultView, summarise};
use crate::draft::{ModelSettings, draft_with_prompt};
use crate::paths::Paths;

/// How far a run has got, after each answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EvalProgress {
    /// Answers to get.
    pub total: u32,
    /// Answers stored so far.
    pub finished: u32,
    /// Of those, answers whose hard checks failed.
    pub hard_failed: u32,
}

/// One answer to get: a case on a profile, one repeat.
#[derive(Debug, Clone)]
struct Job {
    case: usize,
    profile: usize,
    repeat: u32,
}

struct Shared {
    store: Mutex<Store>,
    run_id: String,
    cases: Vec<Case>,
    profiles: Vec<ModelSettings>,
    clients: Vec<Option<Client>>,
    prompt: &'static SystemPrompt,
    queue: Mutex<VecDeque<Job>>,
    cancel: CancellationToken,
    /// Profiles whose service refused in a way every further request would meet too (the key,
    /// the quota, the schema mode, the settings): nothing more is sent to them.
    halted: Mutex<Vec<usize>>,
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A new run's id: its creation time to the millisecond, which also sorts the runs.
fn new_run_id() -> String {
    let now = jiff::Timestamp::now();
    format!(
        "{}-{:03}",
        now.strftime("%Y%m%d-%H%M%S"),
        now.subsec_millisecond()
    )
}

/// Runs a prepared evaluation: refuses it over the cost cap, stores the run, asks each profile
/// for each case and repeat with bounded concurrency, stores each answer as it arrives and
/// checks it. `on_progress` hears after each stored answer.
pub async fn run_eval(
    prepared: &PreparedEval,
    paths: &Paths,
    cancel: &CancellationToken,
    on_progress: &(dyn Fn(EvalProgress) + Sync),
) -> Result<EvalReport, EvalError> {
    prepared.check_cost_cap()?;
    if let Some(model) = prepared
        .profiles
        .iter()
        .find(|model| model.provider.needs_api_key && model.api_key.is_none())
    {
        return Err(EvalError::NoApiKey {
            profile: model.provider.profile.as_str().to_owned(),
        });
    }
    let store = crate::database::open_store(paths)?;
    let plan_json = serde_json::to_value(&prepared.plan).unwrap_or_default();
    let schema = prepared.prompt.schema();
    let mut run_id = new_run_id();
    for attempt in 1..=5 {
        let created = store.create_eval_run(&NewEvalRun {
            id: run_id.clone(),
            prompt_version: prepared.prompt.version.to_owned(),
            prompt_sha256: prepared.prompt.sha256().to_owned(),
            schema_id: schema.id.to_owned(),
            schema_version: schema.version,
            profiles_json: serde_json::to_string(&prepared.plan.profiles).unwrap_or_default(),
            plan_json: plan_json.to_string(),
        });
        match created {
            Ok(()) => break,
            // Two runs started in the same millisecond: the second takes a suffix.
            Err(_) if attempt < 5 && store.eval_run(&run_id)?.is_some() => {
                run_id = format!("{}-{attempt}", new_run_id());
            }
            Err(error) => return Err(error.into()),
        }
    }
    let mut jobs = VecDeque::new();
    for (case_index, _) in prepared.cases.iter().enumerate() {
        for profile in 0..prepared.profiles.len() {
            for repeat in 1..=prepared.plan.repeats {
                jobs.push_back(Job {
                    case: case_index,
                    profile,
                    repeat,
                });
            }
        }
    }
    let total = jobs.len() as u32;
    let clients = prepared
        .profiles
        .iter()
        .map(|model| prepared.session.client_for(model))
        .collect();
    let shared = Arc::new(Shared {
        store: Mutex::new(store),
        run_id: run_id.clone(),
        cases: prepared.cases.clone(),
        profiles: prepared.profiles.clone(),
        clients,
        prompt: prepared.prompt,
        queue: Mutex::new(jobs),
        cancel: cancel.clone(),
        halted: Mutex::new(Vec::new()),
    });
    let (sender, mut receiver) = tokio::sync::mpsc::unbounded_channel();
    for _ in 0..prepared.plan.concurrency.max(1) {
        let shared = Arc::clone(&shared);
        let sender = sender.clone();
        tokio::spawn(async move {
            loop {
                if shared.cancel.is_cancelled() {
                    break;
                }
                let Some(job) = lock(&shared.queue).pop_front() else {
                    break;
                };
                if lock(&shared.halted).contains(&job.profile) {
                    continue;
                }
                let Some(cassette) = answer(&shared, &job).await else {
                    break;
                };
                if cassette.outcome == "failed"
                    && cassette
                        .reason
                        .as_deref()
                        .and_then(FailureReason::from_code)
                        .is_some_and(FailureReason::halts_further_requests)
                {
                    lock(&shared.halted).push(job.profile);
                }
                let stored = lock(&shared.store).add_eval_cassette(&shared.run_id, &cassette);
                let failed = stored.is_err();
                if sender.send(stored.map(|()| (job, cassette))).is_err() || failed {
                    break;
                }
            }
        });
    }
    drop(sender);
    let mut results = Vec::new();
    let mut store_error = None;
    let mut progress = EvalProgress {
        total,
        finished: 0,
        hard_failed: 0,
    };
    while let Some(message) = receiver.recv().await {
        match message {
            Ok((job, cassette)) => {
                let case = &shared.cases[job.case];
                let result = evaluate_cassette(case, &cassette);
                progress.finished += 1;
                if result.hard == super::report::HardVerdict::Fail {
                    progress.hard_failed += 1;
                }
                on_progress(progress);
                results.push((job.profile, result));
            }
            Err(error) => {
                cancel.cancel();
                store_error.get_or_insert(error);
            }
        }
    }
    if let Some(error) = store_error {
        return Err(error.into());
    }
    let stopped = progress.finished < total;
    let mut report = report(
        Some(run_id),
        plan_json,
        &prepared.plan.profiles,
        results,
        stopped,
        Vec::new(),
    );
    let mut halted = lock(&shared.halted).clone();
    halted.sort_unstable();
    report.halted_profiles = halted
        .into_iter()
        .filter_map(|index| prepared.plan.profiles.get(index).cloned())
        .collect();
    Ok(report)
}

fn report(
    run: Option<String>,
    plan: serde_json::Value,
    profiles: &[String],
    mut results: Vec<(usize, CaseResult)>,
    stopped: bool,
    missing_cases: Vec<String>,
) -> EvalReport {
    // By case, then the profiles in the order given, then repeat: the same order whichever
    // answer came first, so that a replay lists the results as the run did.
    results.sort_by(|(pa, a), (pb, b)| {
        (a.case.as_str(), pa, a.repeat).cmp(&(b.case.as_str(), pb, b.repeat))
    });
    let results: Vec<CaseResult> = results.into_iter().map(|(_, result)| result).collect();
    EvalReport {
        run,
        plan,
        summary: summarise(profiles, &results, None),
        results,
        stopped,
        missing_cases,
        halted_profiles: Vec::new(),
        marks_counted: 0,
    }
}

/// Asks one profile about one case once (with one re-ask for malformed output, as a draft
/// does) and returns the cassette to store; `None` when the run was cancelled before the answer
/// was complete, so that nothing half-done is stored.
async fn answer(shared: &Shared, job: &Job) -> Option<EvalCassette> {
    let case = &shared.cases[job.case];
    let model = &shared.profiles[job.profile];
    let provider = &model.provider;
    let mut cassette = EvalCassette {
        case_id: case.id.clone(),
        profile: provider.profile.as_str().to_owned(),
        repeat: job.repeat,
        input_json: serde_json::to_string(&case.input).unwrap_or_else(|_| "{}".to_owned()),
        replies_json: None,
        outcome: String::new(),
        reason: None,
        failure_detail: None,
        model: Some(provider.model.clone()),
        provider_host: Some(provider.base_url.host().to_owned()),
        prompt_tokens: None,
        completion_tokens: None,
        latency_ms: 0,
        cost: None,
        currency: None,
    };
    let input = match case.checked_input() {
        Ok(input) => input,
        Err(errors) => {
            // Refused before any call, as a draft would be.
            cassette.outcome = Outcome::InvalidInput(errors).kind().code().to_owned();
            return Some(cassette);
        }
    };
    let started = Instant::now();
    let (replies, failure, usage) = ask(
        &input,
        model,
        shared.clients[job.profile].as_ref(),
        shared.prompt,
        &shared.cancel,
    )
    .await;
    cassette.latency_ms = started.elapsed().as_millis() as u64;
    if let Some(failure) = &failure {
        if failure.reason == FailureReason::Cancelled || shared.cancel.is_cancelled() {
            return None;
        }
        cassette.outcome = "failed".to_owned();
        cassette.reason = Some(failure.reason.code().to_owned());
        cassette.failure_detail = Some(failure.message_ru().to_owned());
    }
    if !replies.is_empty() {
        cassette.replies_json = serde_json::to_string(&replies).ok();
        if failure.is_none()
            && let Some(last) = replies.last()
        {
            let outcome = evaluate_reply(&input, last, shared.prompt.schema(), legal_catalogue());
            cassette.outcome = outcome.kind().code().to_owned();
            cassette.reason = outcome.reason().map(str::to_owned);
        }
    }
    if let Some(usage) = usage {
        cassette.prompt_tokens = Some(usage.prompt_tokens);
        cassette.completion_tokens = Some(usage.completion_tokens);
        if let Some(pricing) = &provider.pricing {
            cassette.cost = Some(
                usage.prompt_tokens as f64 * pricing.input_per_million / 1e6
                    + usage.completion_tokens as f64 * pricing.output_per_million / 1e6,
            );
            cassette.currency = pricing.currency.clone();
        }
    }
    Some(cassette)
}

/// The model call of one answer: the chosen prompt through the very loop a resident's draft
/// goes through ([`draft_with_prompt`]: the same chat request, re-asks, budget and service
/// advice; without a shared client it builds its own and reports why it cannot). Returns every
/// reply read, the failure that ended it if any, and the usage.
async fn ask(
    input: &ResidentInput,
    model: &ModelSettings,
    client: Option<&Client>,
    prompt: &SystemPrompt,
    cancel: &CancellationToken,
) -> (Vec<ModelReply>, Option<Failure>, Option<Usage>) {
    let run = draft_with_prompt(input, model, client, prompt, cancel, &|_| {}).await;
    let failure = match run.outcome {
        Outcome::Failed(failure) => Some(failure),
        _ => None,
    };
    match run.record {
        Some(record) => (
            record
                .responses
                .into_iter()
                .map(|response| response.reply)
                .collect(),
            failure,
            record.usage,
        ),
        None => (Vec::new(), failure, None),
    }
}

/// Checks one stored answer against its case as the case file says today. The input the model
/// saw is the cassette's; when the case's input has changed since, a check says so.
fn evaluate_cassette(case: &Case, cassette: &EvalCassette) -> CaseResult {
    let recorded: RawInput = serde_json::from_str(&cassette.input_json).unwrap_or_default();
    let parsed = ResidentInput::parse(&recorded);
    let replies: Vec<ModelReply> = cassette
        .replies_json
        .as_deref()
        .and_then(|json| serde_json::from_str(json).ok())
        .unwrap_or_default();
    // Every released request_draft schema has the same shape (a test holds it), so today's
    // checks an answer to an older prompt's schema just as that schema would.
    let schema = request_draft_schema();
    let last = replies.last();
    let outcome = match (&parsed, last, cassette.outcome.as_str()) {
        (Err(errors), _, _) => Outcome::InvalidInput(errors.clone()),
        (Ok(_), _, "failed") | (Ok(_), None, _) => {
            let reason = cassette
                .reason
                .as_deref()
                .and_then(FailureReason::from_code)
                .unwrap_or(FailureReason::Unavailable);
            Outcome::Failed(Failure::new(
                reason,
                false,
                cassette.failure_detail.clone().unwrap_or_default(),
            ))
        }
        (Ok(input), Some(reply), _) => evaluate_reply(input, reply, schema, legal_catalogue()),
    };
    let input = parsed.ok();
    let draft: Option<ModelDraft> = match (&outcome, last) {
        (Outcome::Failed(_) | Outcome::InvalidInput(_), _) | (_, None) => None,
        (_, Some(reply)) => decode_reply(reply, schema).ok(),
    };
    let mut checked = check_answer(&case.expect, input.as_ref(), draft.as_ref(), &outcome);
    if recorded != case.input {
        checked.checks.push(super::checks::CheckResult {
            check: "case_input",
            verdict: zayavka_core::Verdict::Unsure,
            detail: Some(
                "вход случая изменился после записи: ответ модели — на прежний вход".to_owned(),
            ),
        });
    }
    let view = ResultView {
        input: recorded,
        request_text: outcome.request().map(|request| request.plain_text()),
        why_not: match &outcome {
            Outcome::Ready(_) => None,
            other => Some(other.message_ru()),
        },
        draft,
        notes: case.expect.notes.clone(),
    };
    CaseResult::new(
        (&case.id, &cassette.profile, cassette.repeat),
        &outcome,
        checked,
        cassette,
        view,
    )
}

/// Checks a stored run again with no network: its cassettes against today's checks and today's
/// case files in `cases_dir` (only `case_ids`, when given). A cassette whose case file is gone
/// is listed, not checked.
pub fn replay_eval(
    store: &Store,
    run_id: &str,
    cases_dir: &std::path::Path,
    case_ids: &[String],
) -> Result<EvalReport, EvalError> {
    let Some(run) = store.eval_run(run_id)? else {
        let latest = store.eval_runs(5)?.into_iter().map(|run| run.id).collect();
        return Err(EvalError::RunNotFound {
            id: run_id.to_owned(),
            latest,
        });
    };
    let bad = |message: String| EvalError::BadCassette {
        run: run.id.clone(),
        message,
    };
    let plan: serde_json::Value =
        serde_json::from_str(&run.plan_json).map_err(|error| bad(error.to_string()))?;
    let profiles: Vec<String> =
        serde_json::from_str(&run.profiles_json).map_err(|error| bad(error.to_string()))?;
    let cases = load_cases(cases_dir, &[])?;
    let mut results = Vec::new();
    let mut missing = Vec::new();
    for cassette in store.eval_cassettes(&run.id)? {
        if !case_ids.is_empty() && !case_ids.contains(&cassette.case_id) {
            continue;
        }
        let Some(case) = cases.iter().find(|case| case.id == cassette.case_id) else {
            if !missing.contains(&cassette.case_id) {
                missing.push(cassette.case_id.clone());
            }
            continue;
        };
        let position = profiles
            .iter()
            .position(|profile| profile == &cassette.profile)
            .unwrap_or(profiles.len());
        results.push((position, evaluate_cassette(case, &cassette)));
    }
    for id in case_ids {
        if !results.iter().any(|(_, result)| &result.case == id) && !missing.contains(id) {
            return Err(EvalError::UnknownCase {
                id: id.clone(),
                dir: cases_dir.to_owned(),
            });
        }
    }
    Ok(report(
        Some(run.id.clone()),
        plan,
        &profiles,
        results,
        false,
        missing,
    ))
}
