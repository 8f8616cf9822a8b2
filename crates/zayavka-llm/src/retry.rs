//! The pure half of the retry policy: how long to wait, and whether to try again at all,
//! and the stable codes that say why.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

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
    /// What caused it, recorded as the retry reason when the provider set no wait.
    pub(crate) cause: RetryReason,
    /// The wait the provider asked for, if it did.
    pub(crate) server_delay: Option<Duration>,
}

/// The decision to try again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RetryPlan {
    /// How long to wait first.
    pub(crate) wait: Duration,
    /// Why, as recorded on the attempt: [`RetryReason::RetryAfter`] when the provider set
    /// the wait, otherwise the failure's cause.
    pub(crate) reason: RetryReason,
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
        Some(delay) => (delay.min(budget.retry_after_cap), RetryReason::RetryAfter),
        None => (
            backoff_delay(
                budget.backoff_base,
                budget.backoff_max,
                attempt_number,
                jitter,
            ),
            failure.cause,
        ),
    };
    (wait < remaining).then_some(RetryPlan { wait, reason })
}

/// Why another attempt followed a failed one, as an [`crate::Attempt`] records it.
///
/// It is stored in context records and will become a database column, so each value has one
/// stable snake_case code ([`RetryReason::as_str`]), which is also its serde form; an HTTP
/// answer without a code of its own is `http_` and its status, such as `http_503`.
///
/// The causes of failures that are never retried (`cancelled`, `bad_config`,
/// `response_too_large`) have codes too, so that every failure has a cause, but they never
/// appear on a stored attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RetryReason {
    /// The provider set the wait with `Retry-After` or `retry-after-ms`: `retry_after`.
    RetryAfter,
    /// An HTTP answer whose status (`408`, `429`, `5xx`) asks for another try: `http_NNN`.
    HttpStatus(u16),
    /// The attempt or its body did not finish in time: `timeout`.
    Timeout,
    /// The TCP or TLS connection was not established in time: `connect_timeout`.
    ConnectTimeout,
    /// The connection could not be established, such as a refused port: `connect_error`.
    ConnectError,
    /// The connection broke or closed before an answer arrived: `connection_error`.
    ConnectionError,
    /// The connection broke while the body of a success answer was read: `body_error`.
    BodyError,
    /// A success status came with a body that is not a chat-completions object:
    /// `invalid_response`.
    InvalidResponse,
    /// The body passed the size cap; never retried: `response_too_large`.
    ResponseTooLarge,
    /// The request could not be built; never retried: `bad_config`.
    BadConfig,
    /// The caller cancelled; never retried: `cancelled`.
    Cancelled,
    /// The API answered `401` to a GigaChat access token kept from an earlier exchange, so
    /// the token was exchanged again and the request sent once more at once, without a wait
    /// and without using up one of the budget's attempts: `token_rejected`.
    TokenRejected,
}

impl RetryReason {
    /// Every reason with a fixed code, in declaration order; [`RetryReason::HttpStatus`]
    /// stands here for all of its statuses with one example.
    pub const EXAMPLES: [RetryReason; 12] = [
        RetryReason::RetryAfter,
        RetryReason::HttpStatus(503),
        RetryReason::Timeout,
        RetryReason::ConnectTimeout,
        RetryReason::ConnectError,
        RetryReason::ConnectionError,
        RetryReason::BodyError,
        RetryReason::InvalidResponse,
        RetryReason::ResponseTooLarge,
        RetryReason::BadConfig,
        RetryReason::Cancelled,
        RetryReason::TokenRejected,
    ];

    /// The stable code, the same string serde uses: `http_503`, `retry_after`, and so on.
    pub fn as_str(self) -> std::borrow::Cow<'static, str> {
        let fixed = match self {
            RetryReason::HttpStatus(status) => {
                return std::borrow::Cow::Owned(format!("{HTTP_STATUS_PREFIX}{status}"));
            }
            RetryReason::RetryAfter => "retry_after",
            RetryReason::Timeout => "timeout",
            RetryReason::ConnectTimeout => "connect_timeout",
            RetryReason::ConnectError => "connect_error",
            RetryReason::ConnectionError => "connection_error",
            RetryReason::BodyError => "body_error",
            RetryReason::InvalidResponse => "invalid_response",
            RetryReason::ResponseTooLarge => "response_too_large",
            RetryReason::BadConfig => "bad_config",
            RetryReason::Cancelled => "cancelled",
            RetryReason::TokenRejected => "token_rejected",
        };
        std::borrow::Cow::Borrowed(fixed)
    }
}

const HTTP_STATUS_PREFIX: &str = "http_";

impl fmt::Display for RetryReason {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(&self.as_str())
    }
}

/// A string that is not the code of any [`RetryReason`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a known retry reason")]
pub struct UnknownRetryReason(pub String);

impl FromStr for RetryReason {
    type Err = UnknownRetryReason;

    /// Reads a code back. Only the canonical spelling is accepted (`http_503`, not
    /// `http_0503` or `HTTP_503`), so that every stored string names exactly one value and
    /// reads back as it was written.
    fn from_str(code: &str) -> Result<RetryReason, UnknownRetryReason> {
        let unknown = || UnknownRetryReason(code.to_owned());
        if let Some(digits) = code.strip_prefix(HTTP_STATUS_PREFIX) {
            let canonical = !digits.is_empty()
                && !digits.starts_with('0')
                && digits.bytes().all(|byte| byte.is_ascii_digit());
            // HTTP status codes have three digits (RFC 9110, section 15).
            return match digits.parse::<u16>() {
                Ok(status) if canonical && (100..=999).contains(&status) => {
                    Ok(RetryReason::HttpStatus(status))
                }
                _ => Err(unknown()),
            };
        }
        RetryReason::EXAMPLES
            .into_iter()
            .filter(|reason| !matches!(reason, RetryReason::HttpStatus(_)))
            .find(|reason| reason.as_str() == code)
            .ok_or_else(unknown)
    }
}

impl Serialize for RetryReason {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.as_str())
    }
}

impl<'de> Deserialize<'de> for RetryReason {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<RetryReason, D::Error> {
        let code = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
        code.parse().map_err(serde::de::Error::custom)
    }
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

    fn failure(kind: ErrorKind, cause: RetryReason) -> Failure {
        Failure {
            kind,
            cause,
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
            &failure(ErrorKind::Unavailable, RetryReason::HttpStatus(503)),
            Duration::from_secs(10),
            1.0,
        );
        assert_eq!(
            plan,
            Some(RetryPlan {
                wait: 100 * MS,
                reason: RetryReason::HttpStatus(503)
            })
        );
        let plan = plan_retry(
            &budget(),
            2,
            &failure(ErrorKind::Unavailable, RetryReason::ConnectError),
            Duration::from_secs(10),
            1.0,
        );
        assert_eq!(plan.unwrap().reason, RetryReason::ConnectError);
    }

    #[test]
    fn honours_retry_after_up_to_the_cap() {
        let mut rate_limited = failure(ErrorKind::RateLimited, RetryReason::HttpStatus(429));
        rate_limited.server_delay = Some(Duration::from_secs(20));
        let plan = plan_retry(&budget(), 1, &rate_limited, Duration::from_secs(10), 0.5).unwrap();
        assert_eq!(plan.wait, 500 * MS);
        assert_eq!(plan.reason, RetryReason::RetryAfter);
    }

    #[test]
    fn gives_up_when_permanent_exhausted_or_out_of_time() {
        let transient = failure(ErrorKind::Timeout, RetryReason::Timeout);
        let plenty = Duration::from_secs(10);
        assert_eq!(
            plan_retry(
                &budget(),
                1,
                &failure(ErrorKind::Auth, RetryReason::HttpStatus(401)),
                plenty,
                0.0
            ),
            None
        );
        assert_eq!(plan_retry(&budget(), 3, &transient, plenty, 0.0), None);
        assert_eq!(plan_retry(&budget(), 1, &transient, 50 * MS, 0.0), None);
        assert!(plan_retry(&budget(), 1, &transient, 51 * MS, 0.0).is_some());
    }

    #[test]
    fn retry_reason_codes_are_unique_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        let statuses = [100, 408, 429, 500, 502, 504, 999];
        let every = RetryReason::EXAMPLES
            .into_iter()
            .chain(statuses.map(RetryReason::HttpStatus));
        for reason in every {
            let code = reason.as_str().into_owned();
            assert!(seen.insert(code.clone()), "{code} is not unique");
            assert_eq!(reason.to_string(), code);
            assert_eq!(code.parse::<RetryReason>(), Ok(reason));
            let json = serde_json::to_string(&reason).unwrap();
            assert_eq!(json, format!("\"{code}\""));
            assert_eq!(serde_json::from_str::<RetryReason>(&json).unwrap(), reason);
            let value = serde_json::to_value(reason).unwrap();
            assert_eq!(
                serde_json::from_value::<RetryReason>(value).unwrap(),
                reason
            );
        }
    }

    #[test]
    fn the_codes_stored_so_far_keep_their_spelling() {
        for (reason, code) in [
            (RetryReason::RetryAfter, "retry_after"),
            (RetryReason::HttpStatus(503), "http_503"),
            (RetryReason::Timeout, "timeout"),
            (RetryReason::ConnectTimeout, "connect_timeout"),
            (RetryReason::ConnectError, "connect_error"),
            (RetryReason::ConnectionError, "connection_error"),
            (RetryReason::BodyError, "body_error"),
            (RetryReason::InvalidResponse, "invalid_response"),
        ] {
            assert_eq!(reason.as_str(), code);
        }
    }

    #[test]
    fn only_canonical_codes_are_read() {
        for code in [
            "",
            "http_",
            "http_0503",
            "http_50",
            "http_1000",
            "http_+503",
            "HTTP_503",
            "http_status",
            "Timeout",
            "retry-after",
            "http_503 ",
        ] {
            assert_eq!(
                code.parse::<RetryReason>(),
                Err(UnknownRetryReason(code.to_owned())),
                "{code:?}"
            );
        }
        assert!(serde_json::from_str::<RetryReason>("\"http_status\"").is_err());
        assert!(serde_json::from_str::<RetryReason>("503").is_err());
    }
}
