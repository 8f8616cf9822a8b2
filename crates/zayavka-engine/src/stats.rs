//! How the model behaves in real use (issue 17, item 7): statistics over the stored drafts, by
//! profile and by period, computed from the drafts database alone — no network, nothing sent
//! anywhere, no key read.
//!
//! A draft counts once, in the period it was first stored and under the profile of its latest
//! model run (a draft with no recorded run — written without a model, refused before any call,
//! or failed before the service was reached — has no profile). Everything it cost, over all its
//! runs, counts there too. What is counted:
//!
//! - outcomes, and the reason codes of needs_user, rejected and failed drafts;
//! - why the legal paragraph was left out of ready drafts;
//! - re-asks (the model asked again after an unusable answer) and HTTP attempts, with the causes
//!   of the retries and the errors of the failed attempts;
//! - the faithfulness findings stored with each request (a request without them — written
//!   before the checks existed, or without a model — counts as none);
//! - the waiting time of each draft sent to a service: from the start of the first HTTP attempt
//!   of its latest run to the end of its last one, so it includes the waits between retries and
//!   the re-asks, and leaves out the local checks, which take milliseconds;
//! - tokens, and the cost the attempts were priced at when they were made, in the currency of
//!   the profile's prices as configured now (the store keeps amounts, not currencies).
//!
//! A service that answers every time but whose answers are rejected looks healthy from the
//! outside; [`GroupStats::attention`] names such a group so that no front end can bury it.

use std::collections::{BTreeMap, HashMap};

use jiff::civil::Date;
use jiff::tz::TimeZone;
use serde::Serialize;
use zayavka_codes::stable_codes;
use zayavka_store::{DraftFacts, DraftOutcome, FactsPeriod, Store, StoreError};

use crate::config::{Config, ProfileName, ProviderKind};
use crate::paths::Paths;

/// A group draws attention when at least this share of its drafts sent to a model was rejected,
/// or failed…
pub const ATTENTION_SHARE: f64 = 0.3;

/// …and at least this many drafts were sent, so that one unlucky draft is not an alarm.
pub const ATTENTION_MIN_DRAFTS: u32 = 3;

stable_codes! {
    /// How drafts are grouped in time.
    #[derive(Default)]
    pub enum Period {
        /// By calendar day.
        Day => "day",
        /// By ISO week, Monday to Sunday.
        Week => "week",
        /// By calendar month.
        #[default]
        Month => "month",
        /// One group per profile over the whole period.
        All => "all",
    }
}

impl Period {
    /// The bucket a local date falls in; `None` for [`Period::All`].
    fn bucket(self, date: Date) -> Option<Bucket> {
        let (label, start) = match self {
            Period::Day => (date.to_string(), date),
            Period::Week => {
                let week = date.iso_week_date();
                let back = i64::from(date.weekday().to_monday_zero_offset());
                let start = date
                    .checked_sub(jiff::Span::new().days(back))
                    .unwrap_or(date);
                (format!("{}-W{:02}", week.year(), week.week()), start)
            }
            Period::Month => (
                format!("{:04}-{:02}", date.year(), date.month()),
                date.first_of_month(),
            ),
            Period::All => return None,
        };
        Some(Bucket { label, start })
    }
}

/// One period bucket.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Bucket {
    /// `2026-12-01` for a day, `2026-W49` for an ISO week, `2026-12` for a month.
    pub label: String,
    /// Its first day.
    pub start: Date,
}

/// What to count.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StatsQuery {
    /// Only drafts stored on or after this day (the resident's local time).
    pub since: Option<Date>,
    /// Only drafts stored on or before this day (the resident's local time).
    pub until: Option<Date>,
    /// Only drafts whose latest model run used this profile.
    pub profile: Option<String>,
    /// How to group in time.
    pub period: Period,
    /// The day the cases' deadlines are judged on; `None` is [`crate::today`].
    pub today: Option<Date>,
}

/// The filed requests of a group (issue 30): how many, and what became of them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CaseTally {
    /// The period of filing, when grouped by period.
    pub period: Option<Bucket>,
    /// The addressee as the resident wrote it, when grouped by addressee («» when not given).
    pub addressee: Option<String>,
    /// Requests filed.
    pub filed: u32,
    /// Answered by the deadline.
    pub answered_on_time: u32,
    /// Answered after it.
    pub answered_late: u32,
    /// Answered when no deadline could be counted (a letter's delivery not entered, a year the
    /// calendar lacks).
    pub answered_no_deadline: u32,
    /// Past the deadline with no answer recorded, closed or not.
    pub never_answered: u32,
    /// Still within the deadline, or with none counted yet.
    pub waiting: u32,
    /// Answered as solved.
    pub solved: u32,
}

impl CaseTally {
    fn add(&mut self, view: &crate::case::CaseView) {
        use crate::case::{CaseState, DeadlineState};
        self.filed += 1;
        let due = match &view.deadline {
            DeadlineState::Known(deadline) => Some(deadline.due),
            _ => None,
        };
        match (view.case.answer, due) {
            (Some(answer), Some(due)) if answer.answered_on <= due => self.answered_on_time += 1,
            (Some(_), Some(_)) => self.answered_late += 1,
            (Some(_), None) => self.answered_no_deadline += 1,
            (None, _) => match view.state {
                CaseState::Overdue { .. } => self.never_answered += 1,
                CaseState::Closed { closed_on } if due.is_some_and(|due| closed_on > due) => {
                    self.never_answered += 1;
                }
                _ => self.waiting += 1,
            },
        }
        if view
            .case
            .answer
            .is_some_and(|answer| answer.result == zayavka_store::AnswerResult::Solved)
        {
            self.solved += 1;
        }
    }
}

/// The filed requests: in all, by period of filing, by addressee.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CaseStats {
    /// Every filed request counted.
    pub total: CaseTally,
    /// By the period they were filed in, oldest first.
    pub by_period: Vec<CaseTally>,
    /// By addressee, by name; those with none given last.
    pub by_addressee: Vec<CaseTally>,
}

/// Drafts by outcome.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Outcomes {
    /// Not finished: under way, or interrupted.
    pub pending: u32,
    /// A request was assembled (with a model or without one).
    pub ready: u32,
    /// The resident was asked to change the text.
    pub needs_user: u32,
    /// The model's answer could not be used.
    pub rejected: u32,
    /// A technical failure.
    pub failed: u32,
    /// The input was refused before any call.
    pub invalid_input: u32,
}

/// Reason codes and how many drafts had each.
pub type Counts = BTreeMap<String, u32>;

/// The reasons of the outcomes that have one.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Reasons {
    /// Of needs_user drafts.
    pub needs_user: Counts,
    /// Of rejected drafts.
    pub rejected: Counts,
    /// Of failed drafts.
    pub failed: Counts,
}

/// Re-asks after an unusable answer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Reasks {
    /// How many, over all drafts.
    pub total: u32,
    /// How many drafts had at least one.
    pub drafts: u32,
}

/// HTTP attempts.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Attempts {
    /// Every attempt made.
    pub total: u32,
    /// Attempts that another attempt followed.
    pub retries: u32,
    /// Why another attempt followed, by code (`http_503`, `timeout`, `retry_after`…).
    pub retry_causes: Counts,
    /// How failed attempts failed, by code (`unavailable`, `rate_limited`…).
    pub errors: Counts,
}

/// Findings of one faithfulness kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct KindCount {
    /// Certain findings.
    pub found: u32,
    /// Findings the checks could not decide.
    pub unsure: u32,
}

/// What the faithfulness checks found in the stored requests.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Faithfulness {
    /// Drafts with at least one certain finding.
    pub drafts_with_found: u32,
    /// Drafts with findings the checks could not decide, and no certain one.
    pub drafts_unsure_only: u32,
    /// Certain findings over all drafts.
    pub found: u32,
    /// Undecided findings over all drafts.
    pub unsure: u32,
    /// Findings by kind (`new_cause`, `new_number`, `negation_flipped`…).
    pub by_kind: BTreeMap<String, KindCount>,
}

/// How long residents waited for the service.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Latency {
    /// Drafts with a recorded attempt, over which the rest is computed.
    pub drafts: u32,
    /// The median, in milliseconds.
    pub median_ms: u64,
    /// The 90th percentile (nearest rank), in milliseconds.
    pub p90_ms: u64,
    /// The longest, in milliseconds.
    pub max_ms: u64,
}

/// Tokens over all attempts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Tokens {
    /// Input tokens.
    pub prompt: u64,
    /// Output tokens.
    pub completion: u64,
    /// All tokens, as the services reported them.
    pub total: u64,
}

/// An amount of money.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Money {
    /// The amount, rounded to 1/10,000 of the currency.
    pub amount: f64,
    /// The currency (`RUB`, `USD`); `None` when the profile's prices name none, or the profile
    /// is no longer configured.
    pub currency: Option<String>,
}

/// Why a group needs a look.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Attention {
    /// At least [`ATTENTION_SHARE`] of the drafts sent to a model were rejected.
    ManyRejected,
    /// At least [`ATTENTION_SHARE`] of the drafts sent to a model failed.
    ManyFailed,
}

/// The statistics of one group of drafts.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct GroupStats {
    /// The period bucket; `None` for the whole period.
    pub period: Option<Bucket>,
    /// The profile of the drafts' latest model run; `None` for drafts with no recorded run.
    pub profile: Option<String>,
    /// How many drafts.
    pub drafts: u32,
    /// By outcome.
    pub outcomes: Outcomes,
    /// Ready drafts written without a model.
    pub ready_without_model: u32,
    /// Drafts that went to a model: ready with a model, needs_user, rejected and failed.
    pub sent_to_model: u32,
    /// The share of `sent_to_model` that was rejected, from 0 to 1; `None` when none was sent.
    pub rejected_share: Option<f64>,
    /// The share of `sent_to_model` that failed, from 0 to 1; `None` when none was sent.
    pub failed_share: Option<f64>,
    /// What needs a look; empty when nothing does.
    pub attention: Vec<Attention>,
    /// The reason codes of the outcomes.
    pub reasons: Reasons,
    /// Why the legal paragraph was left out, over ready drafts.
    pub legal_omissions: Counts,
    /// Re-asks.
    pub reasks: Reasks,
    /// HTTP attempts.
    pub attempts: Attempts,
    /// Faithfulness findings.
    pub faithfulness: Faithfulness,
    /// Waiting time; `None` when no attempt was recorded.
    pub latency: Option<Latency>,
    /// Tokens.
    pub tokens: Tokens,
    /// Money spent, one entry per currency; empty when no attempt was priced.
    pub cost: Vec<Money>,
}

/// Statistics over the stored drafts.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Stats {
    /// The first day counted, as asked.
    pub since: Option<Date>,
    /// The last day counted, as asked.
    pub until: Option<Date>,
    /// The profile asked for.
    pub profile: Option<String>,
    /// How the groups are cut in time.
    pub period: Period,
    /// Every draft counted, in one group.
    pub total: GroupStats,
    /// By period bucket (oldest first), then by profile (by name, drafts with no run last).
    pub groups: Vec<GroupStats>,
    /// The filed requests, by the day they were filed (the period filter applies to that day;
    /// a case has no profile, so the profile filter does not apply).
    pub cases: CaseStats,
}

/// Statistics cannot be computed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StatsError {
    /// The drafts database could not be read.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The period ends before it starts.
    #[error("the period ends before it starts")]
    EmptyPeriod {
        /// The first day asked for.
        since: Date,
        /// The last day asked for.
        until: Date,
    },
}

impl StatsError {
    /// What happened and what to do, in Russian.
    pub fn message_ru(&self) -> String {
        match self {
            StatsError::Store(error) => error.message_ru(),
            StatsError::EmptyPeriod { since, until } => format!(
                "Начальная дата {since} позже конечной {until}: укажите начало периода не \
                 позже его конца."
            ),
        }
    }
}

/// The statistics of the drafts in `store`, in the computer's time zone, with the currencies of
/// the configured profiles. The database is opened by `open` (to read: the handle's) only once
/// the period is known to be a period.
pub fn stats(
    paths: &Paths,
    query: &StatsQuery,
    open: impl FnOnce() -> Result<Store, StoreError>,
) -> Result<Stats, StatsError> {
    check_period(query)?;
    let store = open()?;
    // A missing or broken configuration only costs the currency's name.
    let config = Config::load(&paths.config_file()).ok();
    collect(&store, query, &TimeZone::system(), config.as_ref())
}

fn check_period(query: &StatsQuery) -> Result<(), StatsError> {
    match (query.since, query.until) {
        (Some(since), Some(until)) if since > until => {
            Err(StatsError::EmptyPeriod { since, until })
        }
        _ => Ok(()),
    }
}

/// The start of a local day as a moment; a day the zone skips begins at its first moment.
fn start_of(date: Date, zone: &TimeZone) -> Option<jiff::Timestamp> {
    date.to_zoned(zone.clone())
        .ok()
        .map(|zoned| zoned.timestamp())
}

/// The statistics of the drafts in `store`, with local dates in `zone` and the currencies of
/// `config`'s profiles.
pub fn collect(
    store: &Store,
    query: &StatsQuery,
    zone: &TimeZone,
    config: Option<&Config>,
) -> Result<Stats, StatsError> {
    check_period(query)?;
    let period = FactsPeriod {
        since: query.since.and_then(|date| start_of(date, zone)),
        before: query
            .until
            .and_then(|date| date.tomorrow().ok())
            .and_then(|date| start_of(date, zone)),
    };
    let mut currencies = Currencies::new(config);
    let mut total = Tally::new(None, None);
    let mut groups: BTreeMap<(Option<Bucket>, ProfileKey), Tally> = BTreeMap::new();
    store.visit_draft_facts::<StatsError>(period, |facts| {
        if query.profile.is_some() && facts.profile != query.profile {
            return Ok(());
        }
        let date = facts.created_at.to_zoned(zone.clone()).date();
        let bucket = query.period.bucket(date);
        let currency = currencies.of(facts.profile.as_deref());
        total.add(&facts, &currency);
        let key = (bucket.clone(), ProfileKey(facts.profile.clone()));
        groups
            .entry(key)
            .or_insert_with(|| Tally::new(bucket, facts.profile.clone()))
            .add(&facts, &currency);
        Ok(())
    })?;
    let today = match query.today {
        Some(today) => today,
        None => crate::case::today().unwrap_or_else(|_| jiff::Zoned::now().date()),
    };
    Ok(Stats {
        since: query.since,
        until: query.until,
        profile: query.profile.clone(),
        period: query.period,
        total: total.finish(),
        groups: groups.into_values().map(Tally::finish).collect(),
        cases: case_stats(store, query, today)?,
    })
}

/// The filed requests filed within the query's days, as they stand on `today`.
fn case_stats(store: &Store, query: &StatsQuery, today: Date) -> Result<CaseStats, StatsError> {
    let mut stats = CaseStats::default();
    let mut by_period: BTreeMap<Option<Bucket>, CaseTally> = BTreeMap::new();
    let mut by_addressee: BTreeMap<ProfileKey, CaseTally> = BTreeMap::new();
    for case in store.cases()? {
        let filed_on = case.filing.filed_on;
        if query.since.is_some_and(|since| filed_on < since)
            || query.until.is_some_and(|until| filed_on > until)
        {
            continue;
        }
        let addressee = case.filing.addressee.clone();
        let view = crate::case::CaseView::new(case, today);
        stats.total.add(&view);
        let bucket = query.period.bucket(filed_on);
        by_period
            .entry(bucket.clone())
            .or_insert_with(|| CaseTally {
                period: bucket,
                ..CaseTally::default()
            })
            .add(&view);
        by_addressee
            .entry(ProfileKey(addressee.clone()))
            .or_insert_with(|| CaseTally {
                addressee: Some(addressee.unwrap_or_default()),
                ..CaseTally::default()
            })
            .add(&view);
    }
    stats.by_period = by_period.into_values().collect();
    stats.by_addressee = by_addressee.into_values().collect();
    Ok(stats)
}

/// A profile name that sorts after every name when absent.
#[derive(Debug, Clone, PartialEq, Eq)]
struct ProfileKey(Option<String>);

impl Ord for ProfileKey {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => a.cmp(b),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => std::cmp::Ordering::Equal,
        }
    }
}

impl PartialOrd for ProfileKey {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// The currency of each profile's prices, looked up once per profile.
struct Currencies<'a> {
    config: Option<&'a Config>,
    known: HashMap<Option<String>, Option<String>>,
}

impl<'a> Currencies<'a> {
    fn new(config: Option<&'a Config>) -> Currencies<'a> {
        Currencies {
            config,
            known: HashMap::new(),
        }
    }

    fn of(&mut self, profile: Option<&str>) -> Option<String> {
        let config = self.config;
        self.known
            .entry(profile.map(str::to_owned))
            .or_insert_with(|| currency_of(config, profile?))
            .clone()
    }
}

/// The currency of a profile's prices: the one its prices name, else its kind's; for a profile
/// no longer configured, the kind's of the built-in profile of that name (`gigachat`, `yandex`).
fn currency_of(config: Option<&Config>, profile: &str) -> Option<String> {
    let name = ProfileName::parse(profile).ok()?;
    match config.and_then(|config| config.profile_settings(&name).ok()) {
        Some(settings) => settings
            .pricing
            .and_then(|pricing| pricing.currency)
            .or_else(|| settings.kind.preset().currency.map(str::to_owned)),
        None => ProviderKind::parse(profile)?
            .preset()
            .currency
            .map(str::to_owned),
    }
}

/// A group being counted.
struct Tally {
    stats: GroupStats,
    latencies: Vec<u64>,
    cost: BTreeMap<Option<String>, f64>,
}

impl Tally {
    fn new(period: Option<Bucket>, profile: Option<String>) -> Tally {
        Tally {
            stats: GroupStats {
                period,
                profile,
                ..GroupStats::default()
            },
            latencies: Vec::new(),
            cost: BTreeMap::new(),
        }
    }

    fn add(&mut self, facts: &DraftFacts, currency: &Option<String>) {
        let stats = &mut self.stats;
        stats.drafts += 1;
        let outcomes = &mut stats.outcomes;
        let reasons = &mut stats.reasons;
        let reason_counts = match facts.outcome {
            DraftOutcome::Pending => {
                outcomes.pending += 1;
                None
            }
            DraftOutcome::Ready => {
                outcomes.ready += 1;
                if facts.model_used {
                    stats.sent_to_model += 1;
                } else {
                    stats.ready_without_model += 1;
                }
                if let Some(omission) = &facts.legal_omission {
                    bump(&mut stats.legal_omissions, omission);
                }
                None
            }
            DraftOutcome::NeedsUser => {
                outcomes.needs_user += 1;
                stats.sent_to_model += 1;
                Some(&mut reasons.needs_user)
            }
            DraftOutcome::Rejected => {
                outcomes.rejected += 1;
                stats.sent_to_model += 1;
                Some(&mut reasons.rejected)
            }
            DraftOutcome::Failed => {
                outcomes.failed += 1;
                stats.sent_to_model += 1;
                Some(&mut reasons.failed)
            }
            DraftOutcome::InvalidInput => {
                outcomes.invalid_input += 1;
                None
            }
        };
        if let Some(counts) = reason_counts {
            bump(counts, facts.reason.as_deref().unwrap_or("unknown"));
        }
        stats.reasks.total += facts.reasks;
        stats.reasks.drafts += u32::from(facts.reasks > 0);
        add_findings(&mut stats.faithfulness, facts.faithfulness_json.as_deref());
        let mut spent: Option<f64> = None;
        for stored in &facts.attempts {
            let attempt = &stored.attempt;
            stats.attempts.total += 1;
            if let Some(cause) = &attempt.retry_reason {
                stats.attempts.retries += 1;
                bump(&mut stats.attempts.retry_causes, cause);
            }
            if let Some(error) = &attempt.error_kind {
                bump(&mut stats.attempts.errors, error);
            }
            stats.tokens.prompt += attempt.prompt_tokens.unwrap_or(0);
            stats.tokens.completion += attempt.completion_tokens.unwrap_or(0);
            stats.tokens.total += attempt.total_tokens.unwrap_or(0);
            if let Some(cost) = attempt.cost {
                *spent.get_or_insert(0.0) += cost;
            }
        }
        if let Some(spent) = spent {
            *self.cost.entry(currency.clone()).or_insert(0.0) += spent;
        }
        if let Some(waited) = waiting_ms(facts) {
            self.latencies.push(waited);
        }
    }

    fn finish(mut self) -> GroupStats {
        let stats = &mut self.stats;
        let share = |count: u32| {
            (stats.sent_to_model > 0)
                .then(|| round(f64::from(count) / f64::from(stats.sent_to_model), 1e3))
        };
        stats.rejected_share = share(stats.outcomes.rejected);
        stats.failed_share = share(stats.outcomes.failed);
        if stats.sent_to_model >= ATTENTION_MIN_DRAFTS {
            let many = |count: u32| {
                f64::from(count) >= ATTENTION_SHARE * f64::from(stats.sent_to_model) - 1e-9
            };
            if many(stats.outcomes.rejected) {
                stats.attention.push(Attention::ManyRejected);
            }
            if many(stats.outcomes.failed) {
                stats.attention.push(Attention::ManyFailed);
            }
        }
        self.latencies.sort_unstable();
        stats.latency = latency(&self.latencies);
        stats.cost = self
            .cost
            .into_iter()
            .map(|(currency, amount)| Money {
                amount: round(amount, 1e4),
                currency,
            })
            .collect();
        self.stats
    }
}

fn bump(counts: &mut Counts, code: &str) {
    *counts.entry(code.to_owned()).or_insert(0) += 1;
}

fn round(value: f64, scale: f64) -> f64 {
    (value * scale).round() / scale
}

/// Counts the findings of a stored request's `faithfulness` array, read as plain JSON so that
/// requests of every version read: an element without a known certainty counts as found.
fn add_findings(faithfulness: &mut Faithfulness, json: Option<&str>) {
    let Some(findings) = json
        .and_then(|json| serde_json::from_str::<Vec<serde_json::Value>>(json).ok())
        .filter(|findings| !findings.is_empty())
    else {
        return;
    };
    let (mut found, mut unsure) = (0, 0);
    for finding in &findings {
        let kind = finding
            .get("kind")
            .and_then(serde_json::Value::as_str)
            .unwrap_or("unknown");
        let count = faithfulness.by_kind.entry(kind.to_owned()).or_default();
        if finding.get("certainty").and_then(serde_json::Value::as_str) == Some("unsure") {
            count.unsure += 1;
            unsure += 1;
        } else {
            count.found += 1;
            found += 1;
        }
    }
    faithfulness.found += found;
    faithfulness.unsure += unsure;
    if found > 0 {
        faithfulness.drafts_with_found += 1;
    } else if unsure > 0 {
        faithfulness.drafts_unsure_only += 1;
    }
}

/// From the start of the first attempt of the draft's latest run to the end of its last one.
fn waiting_ms(facts: &DraftFacts) -> Option<u64> {
    let latest = facts
        .attempts
        .iter()
        .filter(|stored| facts.latest_record.is_none() || stored.record_id == facts.latest_record)
        .map(|stored| &stored.attempt);
    let (start, end) = latest.fold(None, |span: Option<(u64, u64)>, attempt| {
        let start = attempt.started_at_unix_ms;
        let end = start.saturating_add(attempt.duration_ms);
        Some(span.map_or((start, end), |(first, last)| {
            (first.min(start), last.max(end))
        }))
    })?;
    Some(end - start)
}

/// Median and 90th percentile by nearest rank over sorted values.
fn latency(sorted: &[u64]) -> Option<Latency> {
    let count = sorted.len();
    let max_ms = *sorted.last()?;
    let rank = |percent: usize| {
        let rank = (percent * count).div_ceil(100).max(1);
        sorted[rank - 1]
    };
    Some(Latency {
        drafts: u32::try_from(count).unwrap_or(u32::MAX),
        median_ms: rank(50),
        p90_ms: rank(90),
        max_ms,
    })
}

impl crate::error::EngineError for StatsError {
    fn kind(&self) -> crate::error::ErrorKind {
        match self {
            StatsError::Store(_) => crate::error::ErrorKind::Store,
            StatsError::EmptyPeriod { .. } => crate::error::ErrorKind::InvalidRequest,
        }
    }

    fn message_ru(&self) -> String {
        StatsError::message_ru(self)
    }

    fn store_code(&self) -> Option<zayavka_store::StoreErrorCode> {
        match self {
            StatsError::Store(error) => Some(error.code()),
            StatsError::EmptyPeriod { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zayavka_store::{FinalOutcome, FinishedDraft, NewAttempt, NewContextRecord, NewDraft};

    #[test]
    fn the_periods_pass_the_shared_check() {
        zayavka_codes::check_stable_codes::<Period>().unwrap();
    }

    fn open() -> (tempfile::TempDir, Store) {
        let folder = tempfile::tempdir().unwrap();
        let store = Store::open(&folder.path().join("z.sqlite3")).unwrap();
        (folder, store)
    }

    fn new_draft(store: &Store) -> zayavka_store::DraftId {
        store
            .create_draft(&NewDraft {
                raw_input_json: "{}".to_owned(),
                checked_input_json: None,
            })
            .unwrap()
    }

    fn record(profile: &str, reasks: usize) -> NewContextRecord {
        let mut responses = vec![serde_json::json!({"reask": [], "verdict": "schema_violation"})];
        for _ in 0..reasks {
            responses.push(serde_json::json!({
                "reask": [{"role": "user", "content": "Исправьте ответ"}],
                "verdict": "ready"
            }));
        }
        NewContextRecord {
            format_version: 2,
            record_json: serde_json::json!({"messages": [], "responses": responses}).to_string(),
            app_version: "0.1.0".to_owned(),
            prompt_version: "v1".to_owned(),
            prompt_sha256: "p".to_owned(),
            schema_id: "s".to_owned(),
            schema_version: 1,
            schema_sha256: "s".to_owned(),
            transport_schema_sha256: None,
            legal_catalogue_version: "c".to_owned(),
            provider_profile: profile.to_owned(),
            provider_host: "h".to_owned(),
            model: "m".to_owned(),
        }
    }

    /// An attempt starting `at` milliseconds in, lasting `ms`; a retry cause makes it a 503.
    fn attempt(number: u32, at: u64, ms: u64, retry: Option<&str>) -> NewAttempt {
        NewAttempt {
            number,
            started_at_unix_ms: 1_000_000 + at,
            duration_ms: ms,
            http_status: Some(if retry.is_some() { 503 } else { 200 }),
            error_kind: retry.map(|_| "unavailable".to_owned()),
            retry_reason: retry.map(str::to_owned),
            prompt_tokens: Some(1000),
            completion_tokens: Some(200),
            total_tokens: Some(1200),
            cost: Some(0.5),
        }
    }

    fn finished(outcome: FinalOutcome, reason: Option<&str>) -> FinishedDraft {
        FinishedDraft {
            outcome,
            reason: reason.map(str::to_owned),
            retryable: None,
            title: None,
            body: None,
            request_json: None,
            warnings_json: "[]".to_owned(),
            subject_module: None,
            legal_omission: None,
            model_used: true,
        }
    }

    /// A ready request with the model, its faithfulness findings as the draft pipeline stores
    /// them (absent when `None`).
    fn ready(faithfulness: Option<serde_json::Value>, omission: &str) -> FinishedDraft {
        let mut request = serde_json::json!({"title": "Не горит свет", "warnings": []});
        if let Some(findings) = faithfulness {
            request["faithfulness"] = findings;
        }
        FinishedDraft {
            request_json: Some(request.to_string()),
            legal_omission: Some(omission.to_owned()),
            ..finished(FinalOutcome::Ready, None)
        }
    }

    /// Drafts of every outcome: `gigachat` answers every time but most answers are rejected.
    fn varied_store() -> (tempfile::TempDir, Store) {
        let (folder, store) = open();
        let finding = |kind: &str, certainty: &str| {
            serde_json::json!({"kind": kind, "certainty": certainty, "field": "problem",
                               "sentence_index": 0, "sentence": "…", "words": [], "spans": [],
                               "message": "…"})
        };
        let gigachat = [
            (
                ready(
                    Some(serde_json::json!([
                        finding("new_cause", "found"),
                        finding("new_word", "unsure")
                    ])),
                    "not_confirmed",
                ),
                0,
                vec![attempt(1, 0, 1000, None)],
            ),
            (
                ready(None, "subject_mismatch"),
                1,
                vec![
                    attempt(1, 0, 500, Some("http_503")),
                    attempt(2, 1500, 1500, None),
                    attempt(3, 3000, 1000, None),
                ],
            ),
            (
                ready(Some(serde_json::json!([])), "not_confirmed"),
                0,
                vec![attempt(1, 0, 2000, None)],
            ),
            (
                finished(FinalOutcome::Rejected, Some("schema_violation")),
                2,
                vec![
                    attempt(1, 0, 3000, None),
                    attempt(2, 3000, 3000, None),
                    attempt(3, 6000, 3000, None),
                ],
            ),
            (
                finished(FinalOutcome::Rejected, Some("schema_violation")),
                0,
                vec![attempt(1, 0, 5000, None)],
            ),
            (
                finished(FinalOutcome::Rejected, Some("truncated")),
                0,
                vec![attempt(1, 0, 6000, None)],
            ),
            (
                finished(FinalOutcome::NeedsUser, Some("multiple_problems")),
                0,
                vec![attempt(1, 0, 7000, None)],
            ),
        ];
        for (done, reasks, attempts) in gigachat {
            let id = new_draft(&store);
            store
                .finish_draft(id, &done, Some(&record("gigachat", reasks)), &attempts)
                .unwrap();
        }
        let id = new_draft(&store);
        store
            .finish_draft(
                id,
                &finished(FinalOutcome::Failed, Some("timeout")),
                Some(&record("local", 0)),
                &[NewAttempt {
                    cost: None,
                    ..attempt(1, 0, 60_000, Some("timeout"))
                }],
            )
            .unwrap();
        // Without a recorded run: written without a model, refused input, no key.
        let offline = FinishedDraft {
            model_used: false,
            ..ready(None, "no_model_subject")
        };
        let id = new_draft(&store);
        store.finish_draft(id, &offline, None, &[]).unwrap();
        let id = new_draft(&store);
        let invalid = FinishedDraft {
            model_used: false,
            ..finished(FinalOutcome::InvalidInput, Some("invalid_input"))
        };
        store.finish_draft(id, &invalid, None, &[]).unwrap();
        let id = new_draft(&store);
        let no_key = FinishedDraft {
            model_used: false,
            ..finished(FinalOutcome::Failed, Some("no_api_key"))
        };
        store.finish_draft(id, &no_key, None, &[]).unwrap();
        new_draft(&store);
        (folder, store)
    }

    fn utc() -> TimeZone {
        TimeZone::UTC
    }

    fn counts(pairs: &[(&str, u32)]) -> Counts {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect()
    }

    #[test]
    fn a_service_that_answers_but_is_mostly_rejected_draws_attention() {
        let (_folder, store) = varied_store();
        let stats = collect(&store, &StatsQuery::default(), &utc(), None).unwrap();
        let total = &stats.total;
        assert_eq!(total.drafts, 12);
        assert_eq!(
            total.outcomes,
            Outcomes {
                pending: 1,
                ready: 4,
                needs_user: 1,
                rejected: 3,
                failed: 2,
                invalid_input: 1,
            }
        );
        assert_eq!(total.ready_without_model, 1);
        assert_eq!(total.sent_to_model, 9);
        assert_eq!(total.rejected_share, Some(0.333));

        // One month, three groups: the two profiles by name, then the drafts with no run.
        assert_eq!(stats.period, Period::Month);
        let profiles: Vec<_> = stats.groups.iter().map(|g| g.profile.as_deref()).collect();
        assert_eq!(profiles, [Some("gigachat"), Some("local"), None]);
        let gigachat = &stats.groups[0];
        assert_eq!(gigachat.drafts, 7);
        assert_eq!(gigachat.sent_to_model, 7);
        assert_eq!(gigachat.rejected_share, Some(0.429));
        assert_eq!(gigachat.attention, [Attention::ManyRejected]);
        assert_eq!(
            gigachat.reasons.rejected,
            counts(&[("schema_violation", 2), ("truncated", 1)])
        );
        assert_eq!(
            gigachat.reasons.needs_user,
            counts(&[("multiple_problems", 1)])
        );
        assert_eq!(
            gigachat.legal_omissions,
            counts(&[("not_confirmed", 2), ("subject_mismatch", 1)])
        );
        assert_eq!(
            gigachat.reasks,
            Reasks {
                total: 3,
                drafts: 2
            }
        );
        assert_eq!(gigachat.attempts.total, 11);
        assert_eq!(gigachat.attempts.retries, 1);
        assert_eq!(gigachat.attempts.retry_causes, counts(&[("http_503", 1)]));
        assert_eq!(gigachat.attempts.errors, counts(&[("unavailable", 1)]));
        assert_eq!(gigachat.tokens.total, 11 * 1200);
        // Priced at 0.5 an attempt; the gigachat preset's prices are in rubles.
        assert_eq!(gigachat.cost.len(), 1);
        assert_eq!(gigachat.cost[0].amount, 5.5);

        // Waiting: 1, 4, 2, 9, 5, 6 and 7 seconds.
        assert_eq!(
            gigachat.latency,
            Some(Latency {
                drafts: 7,
                median_ms: 5000,
                p90_ms: 9000,
                max_ms: 9000,
            })
        );

        // Findings: one draft with a certain one; an empty array and no key count as none.
        let faithfulness = &gigachat.faithfulness;
        assert_eq!(faithfulness.drafts_with_found, 1);
        assert_eq!((faithfulness.found, faithfulness.unsure), (1, 1));
        assert_eq!(
            faithfulness.by_kind["new_cause"],
            KindCount {
                found: 1,
                unsure: 0
            }
        );

        let local = &stats.groups[1];
        assert_eq!(local.attention, [], "one draft is no alarm");
        assert_eq!(local.reasons.failed, counts(&[("timeout", 1)]));
        assert!(local.cost.is_empty(), "nothing was priced");

        let no_run = &stats.groups[2];
        assert_eq!(no_run.drafts, 4);
        assert_eq!(no_run.reasons.failed, counts(&[("no_api_key", 1)]));
        assert_eq!(no_run.latency, None);
        assert_eq!(no_run.attempts.total, 0);
    }

    #[test]
    fn a_request_as_the_pipeline_stores_it_counts_its_own_findings() {
        let (_folder, store) = open();
        let input = serde_json::json!({
            "description": zayavka_standin::LIGHTING_DESCRIPTION,
            "confirmed_subject": "common_area_premises_lighting"
        })
        .to_string();
        let outcome = crate::assemble::assemble_from_texts(
            &input,
            &zayavka_standin::lighting_draft().to_string(),
        );
        assert!(
            matches!(outcome, zayavka_core::Outcome::Ready(_)),
            "{outcome:?}"
        );
        let run = crate::draft::DraftRun {
            outcome,
            record: None,
        };
        let id = new_draft(&store);
        crate::draft::finish(&store, id, &run, true, None).unwrap();

        let stored = store.get_draft(id).unwrap().unwrap();
        let request: serde_json::Value =
            serde_json::from_str(stored.request_json.as_deref().unwrap()).unwrap();
        let findings = request["faithfulness"].as_array().map_or(0, Vec::len);
        let stats = collect(&store, &StatsQuery::default(), &utc(), None).unwrap();
        assert_eq!(stats.total.outcomes.ready, 1);
        assert_eq!(stats.total.sent_to_model, 1);
        let faithfulness = &stats.total.faithfulness;
        assert_eq!(
            (faithfulness.found + faithfulness.unsure) as usize,
            findings
        );
    }

    #[test]
    fn the_currency_is_the_profiles_own() {
        let (_folder, store) = varied_store();
        let config = Config::parse(
            "[profiles.local]\nkind = \"ollama\"\nprice_input_per_million = 1\n\
             price_output_per_million = 2\ncurrency = \"USD\"\n",
            std::path::Path::new("config.toml"),
        )
        .unwrap();
        let stats = collect(&store, &StatsQuery::default(), &utc(), Some(&config)).unwrap();
        assert_eq!(stats.groups[0].cost[0].currency.as_deref(), Some("RUB"));
        assert_eq!(
            stats.total.cost.len(),
            1,
            "the unpriced attempt adds nothing"
        );
    }

    #[test]
    fn filters_by_profile_and_by_local_day() {
        let (_folder, store) = varied_store();
        let today = jiff::Timestamp::now().to_zoned(utc()).date();
        let query = |since, until, profile: Option<&str>| StatsQuery {
            since,
            until,
            profile: profile.map(str::to_owned),
            period: Period::Day,
            today: None,
        };
        let count = |query: StatsQuery| collect(&store, &query, &utc(), None).unwrap().total.drafts;
        assert_eq!(count(query(Some(today), Some(today), None)), 12);
        assert_eq!(count(query(today.tomorrow().ok(), None, None)), 0);
        assert_eq!(count(query(None, today.yesterday().ok(), None)), 0);
        assert_eq!(count(query(None, None, Some("local"))), 1);
        assert_eq!(count(query(None, None, Some("nobody"))), 0);

        let stats = collect(&store, &query(None, None, Some("gigachat")), &utc(), None).unwrap();
        assert_eq!(stats.groups.len(), 1);
        let bucket = stats.groups[0].period.clone().unwrap();
        assert_eq!((bucket.label, bucket.start), (today.to_string(), today));
    }

    #[test]
    fn an_empty_store_and_a_backwards_period() {
        let (_folder, store) = open();
        let stats = collect(&store, &StatsQuery::default(), &utc(), None).unwrap();
        assert_eq!(stats.total.drafts, 0);
        assert!(stats.groups.is_empty());
        assert_eq!(stats.total.rejected_share, None);
        assert_eq!(stats.total.latency, None);

        let since = jiff::civil::date(2026, 12, 5);
        let until = jiff::civil::date(2026, 12, 1);
        let query = StatsQuery {
            since: Some(since),
            until: Some(until),
            ..StatsQuery::default()
        };
        let error = collect(&store, &query, &utc(), None).unwrap_err();
        assert!(matches!(error, StatsError::EmptyPeriod { .. }));
        assert!(
            error.message_ru().contains("2026-12-05"),
            "{}",
            error.message_ru()
        );
    }

    #[test]
    fn buckets_are_the_day_the_iso_week_and_the_month() {
        let date = jiff::civil::date(2026, 12, 2);
        let bucket = |period: Period| period.bucket(date).map(|b| (b.label, b.start.to_string()));
        assert_eq!(
            bucket(Period::Day),
            Some(("2026-12-02".to_owned(), "2026-12-02".to_owned()))
        );
        assert_eq!(
            bucket(Period::Week),
            Some(("2026-W49".to_owned(), "2026-11-30".to_owned()))
        );
        assert_eq!(
            bucket(Period::Month),
            Some(("2026-12".to_owned(), "2026-12-01".to_owned()))
        );
        assert_eq!(bucket(Period::All), None);
        for &period in Period::ALL {
            assert_eq!(Period::from_code(period.code()), Some(period));
        }
    }

    #[test]
    fn percentiles_are_by_nearest_rank() {
        assert_eq!(latency(&[]), None);
        let one = latency(&[700]).unwrap();
        assert_eq!((one.median_ms, one.p90_ms, one.max_ms), (700, 700, 700));
        let ten: Vec<u64> = (1..=10).map(|s| s * 1000).collect();
        let ten = latency(&ten).unwrap();
        assert_eq!(
            (ten.median_ms, ten.p90_ms, ten.max_ms),
            (5000, 9000, 10_000)
        );
    }

    #[test]
    fn filed_requests_are_counted_on_time_late_never_answered_and_solved() {
        use jiff::civil::date;
        use zayavka_store::{Answer, AnswerResult, Filing, FilingMethod, FinalOutcome, NewDraft};
        let folder = tempfile::tempdir().unwrap();
        let store = Store::open(&folder.path().join("zayavka.sqlite3")).unwrap();
        let ready = |description: &str| {
            let raw = serde_json::json!({ "description": description }).to_string();
            let id = store
                .create_draft(&NewDraft {
                    raw_input_json: raw.clone(),
                    checked_input_json: Some(raw),
                })
                .unwrap();
            let finished = zayavka_store::FinishedDraft {
                outcome: FinalOutcome::Ready,
                reason: None,
                retryable: None,
                title: Some("Свет".to_owned()),
                body: Some("Текст.".to_owned()),
                request_json: None,
                warnings_json: "[]".to_owned(),
                subject_module: None,
                legal_omission: None,
                model_used: false,
            };
            store.finish_draft(id, &finished, None, &[]).unwrap();
            id
        };
        let file = |id, filed_on, addressee: Option<&str>| {
            store
                .record_filing(
                    id,
                    &Filing {
                        filed_on,
                        method: FilingMethod::InPerson,
                        number: None,
                        addressee: addressee.map(str::to_owned),
                        delivered_on: None,
                    },
                )
                .unwrap();
        };
        let answer = |id, answered_on, result| {
            store
                .record_answer(
                    id,
                    &Answer {
                        answered_on,
                        result,
                    },
                )
                .unwrap();
        };
        // Filed on Monday 7 December 2026: due on 21 December.
        let on_time = ready("a");
        file(on_time, date(2026, 12, 7), Some("УК Восход"));
        answer(on_time, date(2026, 12, 18), AnswerResult::Solved);
        let late = ready("b");
        file(late, date(2026, 12, 7), Some("УК Восход"));
        answer(late, date(2026, 12, 23), AnswerResult::Refused);
        let never = ready("c");
        file(never, date(2026, 12, 7), None);
        let waiting = ready("d");
        file(waiting, date(2027, 1, 11), Some("ГЖИ"));
        let query = StatsQuery {
            period: Period::Month,
            today: Some(date(2027, 1, 12)),
            ..StatsQuery::default()
        };
        let cases = collect(&store, &query, &utc(), None).unwrap().cases;
        let total = &cases.total;
        assert_eq!(
            (
                total.filed,
                total.answered_on_time,
                total.answered_late,
                total.never_answered
            ),
            (4, 1, 1, 1)
        );
        assert_eq!((total.waiting, total.solved), (1, 1));
        let periods: Vec<(String, u32)> = cases
            .by_period
            .iter()
            .map(|tally| (tally.period.clone().unwrap().label, tally.filed))
            .collect();
        assert_eq!(
            periods,
            [("2026-12".to_owned(), 3), ("2027-01".to_owned(), 1)]
        );
        let addressees: Vec<(&str, u32)> = cases
            .by_addressee
            .iter()
            .map(|tally| (tally.addressee.as_deref().unwrap(), tally.filed))
            .collect();
        assert_eq!(addressees, [("ГЖИ", 1), ("УК Восход", 2), ("", 1)]);
        // The period filter applies to the day of filing.
        let january = StatsQuery {
            since: Some(date(2027, 1, 1)),
            ..query
        };
        assert_eq!(
            collect(&store, &january, &utc(), None)
                .unwrap()
                .cases
                .total
                .filed,
            1
        );
    }
}
