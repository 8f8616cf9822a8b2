//! The pure half of the retry policy: how long to wait, and whether to try again at all.

use std::time::{Duration, SystemTime};

use crate::config::Budget;
use crate::error::ErrorKind;

/// The wait a provider asked for with `retry-after-ms` (sent by OpenAI, more precise) or
/// `Retry-After` in either of its forms: delay-seconds or an HTTP date.
///
/// A date in the past means "now". Unparseable values are ignored, so that a provider's typo
/// falls back to ordinary backoff instead of failing the call.
pub(crate) fn server_requested_delay(
    retry_after_ms: Option<&str>,
    retry_after: Option<&str>,
    now: SystemTime,
) -> Option<Duration> {
    let from_milliseconds = retry_after_ms
        .and_then(|value| parse_non_negative_seconds(value.trim()))
        .map(|milliseconds| milliseconds / 1000);
    from_milliseconds.or_else(|| retry_after.and_then(|value| parse_retry_after(value, now)))
}

/// Parses a `Retry-After` value: `120` or `Wed, 21 Oct 2015 07:28:00 GMT`.
pub(crate) fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Some(delay) = parse_non_negative_seconds(value) {
        return Some(delay);
    }
    let date = httpdate::parse_http_date(value).ok()?;
    Some(date.duration_since(now).unwrap_or(Duration::ZERO))
}

/// Whole seconds as the RFC says, and fractional ones as some servers send anyway.
fn parse_non_negative_seconds(value: &str) -> Option<Duration> {
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let seconds = value.parse::<f64>().ok()?;
    Duration::try_from_secs_f64(seconds).ok()
}

/// The backoff before retry number `retry` (1 is the wait before the second attempt):
/// the base doubled per retry, capped at `max`, with "equal jitter" — half of it fixed and
/// half scaled by `jitter` in `[0, 1]` — so that clients failing together spread out while
/// each still waits at least half the ceiling.
pub(crate) fn backoff_delay(base: Duration, max: Duration, retry: u32, jitter: f64) -> Duration {
    let doublings = retry.saturating_sub(1).min(31);
    let ceiling = base.saturating_mul(1u32 << doublings).min(max);
    let half = ceiling / 2;
    half + half.mul_f64(jitter.clamp(0.0, 1.0))
}

/// What one failed attempt tells the retry policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Failure {
    /// How the attempt failed.
    pub(crate) kind: ErrorKind,
    /// A stable code for the cause, such as `http_503` or `connect_error`.
    pub(crate) cause: &'static str,
    /// The status, kept to build `http_NNN` causes for statuses without a fixed code.
    pub(crate) http_status: Option<u16>,
    /// The wait the provider asked for, if it did.
    pub(crate) server_delay: Option<Duration>,
}

/// The decision to try again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RetryPlan {
    /// How long to wait first.
    pub(crate) wait: Duration,
    /// Why, as recorded on the attempt: `retry_after` when the provider set the wait,
    /// otherwise the failure's cause.
    pub(crate) reason: String,
}

/// Decides whether attempt `attempt_number` is followed by another, and after what wait.
///
/// There is no retry when the failure is permanent, the attempts are used up, or the wait
/// would reach the overall deadline: an attempt that cannot start in time is not worth
/// waiting for, and returning the real failure at once serves the resident better.
pub(crate) fn plan_retry(
    budget: &Budget,
    attempt_number: u32,
    failure: &Failure,
    remaining: Duration,
    jitter: f64,
) -> Option<RetryPlan> {
    if !failure.kind.is_retryable() || attempt_number >= budget.max_attempts {
        return None;
    }
    let (wait, reason) = match failure.server_delay {
        Some(delay) => (delay.min(budget.retry_after_cap), "retry_after".to_owned()),
        None => (
            backoff_delay(
                budget.backoff_base,
                budget.backoff_max,
                attempt_number,
                jitter,
            ),
            match (failure.cause, failure.http_status) {
                ("http_status", Some(status)) => format!("http_{status}"),
                (cause, _) => cause.to_owned(),
            },
        ),
    };
    (wait < remaining).then_some(RetryPlan { wait, reason })
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    fn at(seconds_since_epoch: u64) -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_secs(seconds_since_epoch)
    }

    #[test]
    fn retry_after_in_seconds() {
        assert_eq!(
            parse_retry_after("120", at(0)),
            Some(Duration::from_secs(120))
        );
        assert_eq!(parse_retry_after(" 0 ", at(0)), Some(Duration::ZERO));
        assert_eq!(parse_retry_after("1.5", at(0)), Some(1500 * MS));
        assert_eq!(parse_retry_after("-3", at(0)), None);
        assert_eq!(parse_retry_after("soon", at(0)), None);
    }

    #[test]
    fn retry_after_as_an_http_date() {
        // 1445412480 is Wed, 21 Oct 2015 07:28:00 GMT.
        let date = "Wed, 21 Oct 2015 07:28:00 GMT";
        assert_eq!(
            parse_retry_after(date, at(1_445_412_480 - 42)),
            Some(Duration::from_secs(42))
        );
        assert_eq!(
            parse_retry_after(date, at(1_445_412_480 + 42)),
            Some(Duration::ZERO)
        );
        assert_eq!(
            parse_retry_after("Wednesday, 21-Oct-15 07:28:00 GMT", at(1_445_412_480 - 1)),
            Some(Duration::from_secs(1))
        );
    }

    #[test]
    fn retry_after_ms_wins_over_retry_after() {
        assert_eq!(
            server_requested_delay(Some("250"), Some("3"), at(0)),
            Some(250 * MS)
        );
        assert_eq!(
            server_requested_delay(Some("junk"), Some("3"), at(0)),
            Some(Duration::from_secs(3))
        );
        assert_eq!(server_requested_delay(None, None, at(0)), None);
    }

    #[test]
    fn backoff_doubles_within_jitter_bounds_and_stops_at_the_cap() {
        let base = 100 * MS;
        let max = 1000 * MS;
        for (retry, ceiling) in [
            (1, 100),
            (2, 200),
            (3, 400),
            (4, 800),
            (5, 1000),
            (60, 1000),
        ] {
            let low = backoff_delay(base, max, retry, 0.0);
            let high = backoff_delay(base, max, retry, 1.0);
            assert_eq!(low, ceiling * MS / 2, "retry {retry}");
            assert_eq!(high, ceiling * MS, "retry {retry}");
            for _ in 0..50 {
                let delay = backoff_delay(base, max, retry, fastrand::f64());
                assert!(low <= delay && delay <= high, "retry {retry}: {delay:?}");
            }
        }
        assert_eq!(backoff_delay(base, max, 1, 7.0), 100 * MS);
    }

    fn failure(kind: ErrorKind, cause: &'static str, status: Option<u16>) -> Failure {
        Failure {
            kind,
            cause,
            http_status: status,
            server_delay: None,
        }
    }

    fn budget() -> Budget {
        Budget {
            max_attempts: 3,
            backoff_base: 100 * MS,
            backoff_max: 1000 * MS,
            retry_after_cap: 500 * MS,
            ..Budget::default()
        }
    }

    #[test]
    fn retries_transient_failures_with_backoff() {
        let plan = plan_retry(
            &budget(),
            1,
            &failure(ErrorKind::Unavailable, "http_status", Some(503)),
            Duration::from_secs(10),
            1.0,
        );
        assert_eq!(
            plan,
            Some(RetryPlan {
                wait: 100 * MS,
                reason: "http_503".to_owned()
            })
        );
        let plan = plan_retry(
            &budget(),
            2,
            &failure(ErrorKind::Unavailable, "connect_error", None),
            Duration::from_secs(10),
            1.0,
        );
        assert_eq!(plan.unwrap().reason, "connect_error");
    }

    #[test]
    fn honours_retry_after_up_to_the_cap() {
        let mut rate_limited = failure(ErrorKind::RateLimited, "http_status", Some(429));
        rate_limited.server_delay = Some(Duration::from_secs(20));
        let plan = plan_retry(&budget(), 1, &rate_limited, Duration::from_secs(10), 0.5).unwrap();
        assert_eq!(plan.wait, 500 * MS);
        assert_eq!(plan.reason, "retry_after");
    }

    #[test]
    fn gives_up_when_permanent_exhausted_or_out_of_time() {
        let transient = failure(ErrorKind::Timeout, "timeout", None);
        let plenty = Duration::from_secs(10);
        assert_eq!(
            plan_retry(
                &budget(),
                1,
                &failure(ErrorKind::Auth, "http_status", Some(401)),
                plenty,
                0.0
            ),
            None
        );
        assert_eq!(plan_retry(&budget(), 3, &transient, plenty, 0.0), None);
        assert_eq!(plan_retry(&budget(), 1, &transient, 50 * MS, 0.0), None);
        assert!(plan_retry(&budget(), 1, &transient, 51 * MS, 0.0).is_some());
    }
}
