//! Behaviour of [`Client::complete`] against a real loopback server that misbehaves on cue.
//!
//! Budgets here are tens to hundreds of milliseconds so the whole module runs in seconds;
//! lower bounds on elapsed time are exact (the client must have waited), upper bounds are
//! loose because a busy machine may run slowly.

use std::time::{Duration, Instant, SystemTime};

use serde_json::json;
use zayavka_standin::{
    CANNED_USAGE, ECHO_AUTHORIZATION, ECHO_KEY, Reply, Script, StandIn, chat_completion_body,
};

use super::*;
use crate::error::ErrorKind;
use crate::http::refuses_response_format;
use crate::request::{Message, ResponseFormat};
use crate::response::Usage;
use crate::retry::RetryReason;

const MS: Duration = Duration::from_millis(1);
const KEY: &str = "sk-test-0123456789abcdef";

fn budget() -> Budget {
    Budget {
        connect_timeout: 1000 * MS,
        attempt_timeout: 2000 * MS,
        overall_deadline: 5000 * MS,
        max_attempts: 3,
        backoff_base: 5 * MS,
        backoff_max: 20 * MS,
        retry_after_cap: 150 * MS,
        max_response_bytes: 64 * 1024,
    }
}

fn client(base_url: &str, key: Option<&str>, budget: Budget) -> Client {
    let endpoint = Endpoint::new(
        Url::parse(base_url).unwrap(),
        key.map(|key| ApiKey::new(key.to_owned())),
    );
    Client::new(endpoint, budget).unwrap()
}

fn request(response_format: ResponseFormat) -> ChatRequest {
    ChatRequest {
        model: "test-model".to_owned(),
        messages: vec![
            Message::system("Опиши проблему."),
            Message::user("В подъезде темно."),
        ],
        temperature: 0.0,
        max_tokens: 512,
        response_format,
    }
}

fn strict_request() -> ChatRequest {
    request(ResponseFormat::JsonSchema {
        name: "zayavka_draft".to_owned(),
        schema: json!({"type": "object", "additionalProperties": false}),
        strict: true,
    })
}

/// Runs one call with a fresh token and returns the report with the time it took.
async fn call(stand_in: &StandIn, key: Option<&str>, budget: Budget) -> (CallReport, Duration) {
    call_url(&stand_in.base_url(), key, budget).await
}

async fn call_url(base_url: &str, key: Option<&str>, budget: Budget) -> (CallReport, Duration) {
    let client = client(base_url, key, budget);
    let started = Instant::now();
    let report = client
        .complete(&strict_request(), &CancellationToken::new())
        .await;
    (report, started.elapsed())
}

fn kinds(report: &CallReport) -> Vec<Option<ErrorKind>> {
    report
        .attempts
        .iter()
        .map(|attempt| attempt.error_kind)
        .collect()
}

/// The retry reasons as their stored codes, which is what records keep.
fn reasons(report: &CallReport) -> Vec<Option<String>> {
    report
        .attempts
        .iter()
        .map(|attempt| attempt.retry_reason.map(|reason| reason.to_string()))
        .collect()
}

fn codes<const N: usize>(codes: [Option<&str>; N]) -> Vec<Option<String>> {
    codes
        .into_iter()
        .map(|code| code.map(str::to_owned))
        .collect()
}

fn statuses(report: &CallReport) -> Vec<Option<u16>> {
    report
        .attempts
        .iter()
        .map(|attempt| attempt.http_status)
        .collect()
}

fn error_kind(report: &CallReport) -> ErrorKind {
    match &report.result {
        Ok(completion) => panic!("expected an error, got {completion:?}"),
        Err(error) => error.kind(),
    }
}

fn canned_usage() -> Usage {
    let (prompt_tokens, completion_tokens) = CANNED_USAGE;
    Usage {
        prompt_tokens,
        completion_tokens,
        total_tokens: prompt_tokens + completion_tokens,
    }
}

fn unused_port_url() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    format!("http://127.0.0.1:{port}/v1")
}

#[tokio::test]
async fn success_returns_the_completion_in_one_attempt() {
    let stand_in = StandIn::start(Script::always(Reply::completion("{\"outcome\":\"draft\"}")));
    let (report, _) = call(&stand_in, Some(KEY), budget()).await;

    let completion = report.result.as_ref().unwrap();
    assert_eq!(
        completion.content.as_deref(),
        Some("{\"outcome\":\"draft\"}")
    );
    assert_eq!(completion.finish_reason.as_deref(), Some("stop"));
    assert_eq!(completion.model.as_deref(), Some("standin-model"));
    assert_eq!(
        completion.raw_body,
        chat_completion_body(Some("{\"outcome\":\"draft\"}"), None, "stop")
    );
    assert_eq!(report.attempts.len(), 1);
    let attempt = &report.attempts[0];
    assert_eq!(attempt.number, 1);
    assert_eq!(attempt.http_status, Some(200));
    assert_eq!(attempt.error_kind, None);
    assert_eq!(attempt.retry_reason, None);
    assert_eq!(attempt.usage, Some(canned_usage()));
    assert!(attempt.started_at_unix_ms > 1_600_000_000_000);
    assert_eq!(report.total_usage(), Some(canned_usage()));
    assert_eq!(stand_in.request_count(), 1);
}

#[tokio::test]
async fn refusal_and_truncation_are_returned_for_the_caller_to_judge() {
    let stand_in = StandIn::start(
        Script::new()
            .then(Reply::completion_with(None, Some("I can't."), "stop"))
            .then(Reply::completion_with(Some("{\"title\":"), None, "length")),
    );
    let (refused, _) = call(&stand_in, Some(KEY), budget()).await;
    assert_eq!(refused.result.unwrap().refusal.as_deref(), Some("I can't."));
    let (truncated, _) = call(&stand_in, Some(KEY), budget()).await;
    assert_eq!(
        truncated.result.unwrap().finish_reason.as_deref(),
        Some("length")
    );
    assert_eq!(stand_in.request_count(), 2);
}

#[tokio::test]
async fn rate_limit_with_retry_after_seconds_waits_up_to_the_cap_then_succeeds() {
    let stand_in = StandIn::start(
        Script::new()
            .then(
                Reply::json(429, json!({"error": {"message": "Rate limit reached", "type": "requests", "code": "rate_limit_exceeded"}}))
                    .with_header("retry-after", "1"),
            )
            .then(Reply::completion("ok")),
    );
    let (report, elapsed) = call(&stand_in, Some(KEY), budget()).await;

    assert_eq!(
        report.result.as_ref().unwrap().content.as_deref(),
        Some("ok")
    );
    assert_eq!(kinds(&report), [Some(ErrorKind::RateLimited), None]);
    assert_eq!(reasons(&report), codes([Some("retry_after"), None]));
    assert_eq!(statuses(&report), [Some(429), Some(200)]);
    // The one-second request is cut to the 150 ms cap, and the backoff (at most 20 ms) is
    // not what was waited.
    assert!(elapsed >= 150 * MS, "{elapsed:?}");
    assert!(elapsed < 900 * MS, "{elapsed:?}");
    assert_eq!(stand_in.request_count(), 2);
}

#[tokio::test]
async fn rate_limit_with_retry_after_date_waits_then_succeeds() {
    let date = httpdate::fmt_http_date(SystemTime::now() + Duration::from_secs(3));
    let stand_in = StandIn::start(
        Script::new()
            .then(Reply::status(429, "slow down").with_header("Retry-After", &date))
            .then(Reply::completion("ok")),
    );
    let (report, elapsed) = call(&stand_in, Some(KEY), budget()).await;

    assert!(report.result.is_ok(), "{:?}", report.result);
    assert_eq!(reasons(&report), codes([Some("retry_after"), None]));
    assert!(elapsed >= 150 * MS, "{elapsed:?}");
    assert!(elapsed < 900 * MS, "{elapsed:?}");
    assert_eq!(stand_in.request_count(), 2);
}

#[tokio::test]
async fn service_unavailable_is_retried_then_succeeds() {
    let stand_in = StandIn::start(
        Script::new()
            .then(Reply::status(503, "busy"))
            .then(Reply::completion("ok")),
    );
    let (report, _) = call(&stand_in, Some(KEY), budget()).await;

    assert!(report.result.is_ok(), "{:?}", report.result);
    assert_eq!(kinds(&report), [Some(ErrorKind::Unavailable), None]);
    assert_eq!(reasons(&report), codes([Some("http_503"), None]));
    assert_eq!(
        report
            .attempts
            .iter()
            .map(|attempt| attempt.number)
            .collect::<Vec<_>>(),
        [1, 2]
    );
    assert_eq!(stand_in.request_count(), 2);
}

#[tokio::test]
async fn repeated_server_errors_exhaust_the_attempts() {
    let stand_in = StandIn::start(Script::always(Reply::json(
        500,
        json!({"error": {"message": "The server had an error", "type": "server_error"}}),
    )));
    let (report, _) = call(&stand_in, Some(KEY), budget()).await;

    let error = report.result.as_ref().unwrap_err();
    assert!(error.is_unavailable() && error.is_retryable());
    assert_eq!(error.status(), Some(500));
    assert!(
        error.to_string().contains("The server had an error"),
        "{error}"
    );
    assert_eq!(
        reasons(&report),
        codes([Some("http_500"), Some("http_500"), None])
    );
    assert_eq!(stand_in.request_count(), 3);
}

#[tokio::test]
async fn request_timeout_status_is_retried_as_a_timeout() {
    let stand_in = StandIn::start(
        Script::new()
            .then(Reply::status(408, ""))
            .then(Reply::completion("ok")),
    );
    let (report, _) = call(&stand_in, Some(KEY), budget()).await;
    assert!(report.result.is_ok(), "{:?}", report.result);
    assert_eq!(kinds(&report), [Some(ErrorKind::Timeout), None]);
    assert_eq!(reasons(&report), codes([Some("http_408"), None]));
}

#[tokio::test]
async fn unauthorized_is_not_retried_and_never_echoes_the_key() {
    let stand_in = StandIn::start(Script::always(Reply::json(
        401,
        json!({"error": {"message": format!("Incorrect API key provided: {KEY}. Header was Bearer {KEY}"), "type": "invalid_request_error", "code": "invalid_api_key"}}),
    )));
    let (report, _) = call(&stand_in, Some(KEY), budget()).await;

    let error = report.result.as_ref().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Auth);
    assert!(!error.is_retryable());
    let shown = format!("{error} {error:?} {report:?}");
    assert!(!shown.contains(KEY), "{shown}");
    assert!(!shown.contains("0123456789abcdef"), "{shown}");
    assert!(error.to_string().contains("invalid_api_key"), "{error}");
    assert_eq!(reasons(&report), codes([None]));
    assert_eq!(stand_in.request_count(), 1);
}

#[tokio::test]
async fn refusal_of_a_call_without_a_key_asks_for_a_key() {
    let stand_in = StandIn::start(Script::always(Reply::status(401, "Unauthorized")));
    let (report, _) = call(&stand_in, None, budget()).await;
    assert_eq!(error_kind(&report), ErrorKind::NoApiKey);
    assert_eq!(stand_in.request_count(), 1);
}

#[tokio::test]
async fn permanent_client_errors_are_not_retried() {
    for status in [400, 403, 404, 422] {
        let stand_in = StandIn::start(Script::always(Reply::json(
            status,
            json!({"error": {"message": "Invalid schema for response_format", "type": "invalid_request_error"}}),
        )));
        let (report, _) = call(&stand_in, Some(KEY), budget()).await;
        let expected = if status == 403 {
            ErrorKind::Auth
        } else {
            ErrorKind::BadRequest
        };
        assert_eq!(error_kind(&report), expected, "HTTP {status}");
        assert_eq!(report.attempts.len(), 1, "HTTP {status}");
        assert_eq!(statuses(&report), [Some(status)]);
        assert_eq!(stand_in.request_count(), 1, "HTTP {status}");
    }
}

#[tokio::test]
async fn insufficient_quota_is_not_retried() {
    let stand_in = StandIn::start(Script::always(
        Reply::json(
            429,
            json!({"error": {"message": "You exceeded your current quota, please check your plan and billing details.", "type": "insufficient_quota", "param": null, "code": "insufficient_quota"}}),
        )
        .with_header("retry-after", "1"),
    ));
    let (report, elapsed) = call(&stand_in, Some(KEY), budget()).await;

    assert_eq!(error_kind(&report), ErrorKind::InsufficientQuota);
    assert_eq!(reasons(&report), codes([None]));
    assert!(elapsed < 150 * MS, "no Retry-After wait: {elapsed:?}");
    assert_eq!(stand_in.request_count(), 1);
}

#[tokio::test]
async fn connection_refused_is_retried_then_reported_as_unavailable() {
    let (report, _) = call_url(&unused_port_url(), Some(KEY), budget()).await;

    let error = report.result.as_ref().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Unavailable);
    assert_eq!(error.status(), None);
    // The URL is stripped from transport errors because a URL may carry credentials.
    assert!(!error.to_string().contains("127.0.0.1"), "{error}");
    assert_eq!(
        reasons(&report),
        codes([Some("connect_error"), Some("connect_error"), None])
    );
    assert_eq!(statuses(&report), [None, None, None]);
}

#[tokio::test]
async fn connection_closed_without_an_answer_is_retried() {
    let stand_in = StandIn::start(
        Script::new()
            .then(Reply::CloseImmediately)
            .then(Reply::completion("ok")),
    );
    let (report, _) = call(&stand_in, Some(KEY), budget()).await;
    assert!(report.result.is_ok(), "{:?}", report.result);
    assert_eq!(kinds(&report), [Some(ErrorKind::Unavailable), None]);
    assert_eq!(reasons(&report), codes([Some("connection_error"), None]));
    assert_eq!(stand_in.request_count(), 2);
}

#[tokio::test]
async fn reset_in_the_middle_of_the_body_is_retried() {
    let full = chat_completion_body(Some("ok"), None, "stop");
    let stand_in = StandIn::start(
        Script::new()
            .then(Reply::ResetAfter {
                status: 200,
                declared_len: full.len(),
                sent: full.as_bytes()[..full.len() / 2].to_vec(),
            })
            .then(Reply::completion("ok")),
    );
    let (report, _) = call(&stand_in, Some(KEY), budget()).await;

    assert!(report.result.is_ok(), "{:?}", report.result);
    assert_eq!(kinds(&report), [Some(ErrorKind::Unavailable), None]);
    assert_eq!(reasons(&report), codes([Some("body_error"), None]));
    assert_eq!(statuses(&report), [Some(200), Some(200)]);
    assert_eq!(stand_in.request_count(), 2);
}

#[tokio::test]
async fn a_provider_that_never_answers_hits_the_attempt_timeout() {
    let stand_in = StandIn::start(Script::always(Reply::NeverAnswer));
    let budget = Budget {
        attempt_timeout: 100 * MS,
        max_attempts: 2,
        ..budget()
    };
    let (report, elapsed) = call(&stand_in, Some(KEY), budget).await;

    let error = report.result.as_ref().unwrap_err();
    assert!(error.is_timeout());
    assert!(error.to_string().contains("attempt timeout"), "{error}");
    assert_eq!(reasons(&report), codes([Some("timeout"), None]));
    assert_eq!(statuses(&report), [None, None]);
    assert!(report.attempts[0].duration_ms >= 100);
    assert!(elapsed >= 200 * MS, "{elapsed:?}");
    assert!(elapsed < 1500 * MS, "{elapsed:?}");
    assert_eq!(stand_in.request_count(), 2);
}

#[tokio::test]
async fn a_body_dripping_past_the_attempt_timeout_times_out() {
    let stand_in = StandIn::start(Script::always(Reply::Drip {
        status: 200,
        body: chat_completion_body(Some("ok"), None, "stop").into_bytes(),
        chunk: 8,
        interval: 20 * MS,
    }));
    let budget = Budget {
        attempt_timeout: 150 * MS,
        max_attempts: 1,
        ..budget()
    };
    let (report, elapsed) = call(&stand_in, Some(KEY), budget).await;

    assert_eq!(error_kind(&report), ErrorKind::Timeout);
    // The headers arrived in time; it is the body that did not.
    assert_eq!(statuses(&report), [Some(200)]);
    assert!(elapsed >= 150 * MS, "{elapsed:?}");
    assert!(elapsed < 1000 * MS, "{elapsed:?}");
    assert_eq!(stand_in.request_count(), 1);
}

#[tokio::test]
async fn an_html_error_page_with_502_is_unavailable_and_retried() {
    let page = "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>";
    let stand_in = StandIn::start(
        Script::new()
            .then(Reply::status(502, page).with_header("content-type", "text/html"))
            .then(Reply::completion("ok")),
    );
    let (report, _) = call(&stand_in, Some(KEY), budget()).await;

    assert!(report.result.is_ok(), "{:?}", report.result);
    assert_eq!(kinds(&report), [Some(ErrorKind::Unavailable), None]);
    assert_eq!(reasons(&report), codes([Some("http_502"), None]));
    assert_eq!(stand_in.request_count(), 2);
}

#[tokio::test]
async fn a_five_megabyte_body_is_too_large_and_not_retried() {
    let stand_in = StandIn::start(Script::always(Reply::Http {
        status: 200,
        headers: vec![("content-type".to_owned(), "application/json".to_owned())],
        body: vec![b' '; 5 * 1024 * 1024],
    }));
    let (report, elapsed) = call(&stand_in, Some(KEY), budget()).await;

    assert_eq!(
        report.result.as_ref().unwrap_err(),
        &LlmError::ResponseTooLarge {
            limit_bytes: 64 * 1024
        }
    );
    assert_eq!(reasons(&report), codes([None]));
    assert!(elapsed < 1000 * MS, "{elapsed:?}");
    assert_eq!(stand_in.request_count(), 1);
}

#[tokio::test]
async fn a_chunked_body_is_cut_off_at_the_cap_while_streaming() {
    let stand_in = StandIn::start(Script::always(
        Reply::status(200, vec![b' '; 5 * 1024 * 1024])
            .with_header("content-type", "application/json")
            .with_header("transfer-encoding", "chunked"),
    ));
    let (report, _) = call(&stand_in, Some(KEY), budget()).await;

    assert_eq!(error_kind(&report), ErrorKind::ResponseTooLarge);
    assert_eq!(statuses(&report), [Some(200)]);
    assert_eq!(stand_in.request_count(), 1);
}

#[tokio::test]
async fn invalid_json_with_200_is_an_invalid_response_and_retried() {
    let stand_in = StandIn::start(
        Script::new()
            .then(
                Reply::status(200, "{\"choices\": [{\"message\": ")
                    .with_header("content-type", "application/json"),
            )
            .then(Reply::completion("ok")),
    );
    let (report, _) = call(&stand_in, Some(KEY), budget()).await;
    assert!(report.result.is_ok(), "{:?}", report.result);
    assert_eq!(kinds(&report), [Some(ErrorKind::InvalidResponse), None]);
    assert_eq!(reasons(&report), codes([Some("invalid_response"), None]));
    assert_eq!(stand_in.request_count(), 2);

    let always_html = StandIn::start(Script::always(Reply::status(200, "<html>login</html>")));
    let (report, _) = call(&always_html, Some(KEY), budget()).await;
    let error = report.result.as_ref().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidResponse);
    assert_eq!(error.status(), Some(200));
    assert_eq!(always_html.request_count(), 3);
}

#[tokio::test]
async fn cancellation_during_a_delayed_answer_returns_at_once() {
    let stand_in = StandIn::start(Script::always(
        Reply::completion("late").delayed(Duration::from_secs(5)),
    ));
    let client = client(&stand_in.base_url(), Some(KEY), budget());
    let cancel = CancellationToken::new();
    let canceller = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(50 * MS).await;
        canceller.cancel();
    });
    let started = Instant::now();
    let report = client.complete(&strict_request(), &cancel).await;

    assert_eq!(report.result.as_ref().unwrap_err(), &LlmError::Cancelled);
    assert_eq!(kinds(&report), [Some(ErrorKind::Cancelled)]);
    assert_eq!(reasons(&report), codes([None]));
    assert!(started.elapsed() < 1000 * MS, "{:?}", started.elapsed());
    assert_eq!(stand_in.request_count(), 1);
}

#[tokio::test]
async fn cancellation_during_the_backoff_wait_returns_at_once() {
    let stand_in = StandIn::start(Script::always(Reply::status(503, "busy")));
    let budget = Budget {
        backoff_base: Duration::from_secs(10),
        backoff_max: Duration::from_secs(10),
        overall_deadline: Duration::from_secs(30),
        ..budget()
    };
    let client = client(&stand_in.base_url(), Some(KEY), budget);
    let cancel = CancellationToken::new();
    let canceller = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(100 * MS).await;
        canceller.cancel();
    });
    let started = Instant::now();
    let report = client.complete(&strict_request(), &cancel).await;

    assert!(report.result.as_ref().unwrap_err().is_cancelled());
    assert_eq!(reasons(&report), codes([Some("http_503")]));
    assert!(started.elapsed() < 1000 * MS, "{:?}", started.elapsed());
    assert_eq!(stand_in.request_count(), 1);
}

#[tokio::test]
async fn a_call_cancelled_before_it_starts_sends_nothing() {
    let stand_in = StandIn::start(Script::always(Reply::completion("ok")));
    let client = client(&stand_in.base_url(), Some(KEY), budget());
    let cancel = CancellationToken::new();
    cancel.cancel();
    let report = client.complete(&strict_request(), &cancel).await;

    assert_eq!(report.result.unwrap_err(), LlmError::Cancelled);
    assert!(report.attempts.is_empty());
    assert_eq!(stand_in.request_count(), 0);
}

#[tokio::test]
async fn the_overall_deadline_cuts_a_slow_attempt_short() {
    let stand_in = StandIn::start(Script::always(Reply::NeverAnswer));
    let budget = Budget {
        attempt_timeout: Duration::from_secs(10),
        overall_deadline: 200 * MS,
        ..budget()
    };
    let (report, elapsed) = call(&stand_in, Some(KEY), budget).await;

    let error = report.result.as_ref().unwrap_err();
    assert!(error.is_timeout());
    assert!(error.to_string().contains("overall deadline"), "{error}");
    assert_eq!(reasons(&report), codes([None]));
    assert!(elapsed >= 200 * MS, "{elapsed:?}");
    assert!(elapsed < 1500 * MS, "{elapsed:?}");
    assert_eq!(stand_in.request_count(), 1);
}

#[tokio::test]
async fn a_retry_after_beyond_the_deadline_ends_the_call_without_waiting() {
    let stand_in = StandIn::start(Script::always(
        Reply::status(429, "slow down").with_header("retry-after", "20"),
    ));
    let budget = Budget {
        retry_after_cap: Duration::from_secs(30),
        overall_deadline: 500 * MS,
        ..budget()
    };
    let (report, elapsed) = call(&stand_in, Some(KEY), budget).await;

    assert_eq!(error_kind(&report), ErrorKind::RateLimited);
    assert_eq!(reasons(&report), codes([None]));
    assert!(elapsed < 400 * MS, "{elapsed:?}");
    assert_eq!(stand_in.request_count(), 1);
}

#[tokio::test]
async fn a_redirecting_base_url_is_a_configuration_error() {
    let stand_in = StandIn::start(Script::always(
        Reply::status(301, "")
            .with_header("location", "https://elsewhere.example/v1/chat/completions"),
    ));
    let (report, _) = call(&stand_in, Some(KEY), budget()).await;
    let error = report.result.as_ref().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::BadConfig);
    assert!(error.to_string().contains("elsewhere.example"), "{error}");
    assert_eq!(stand_in.request_count(), 1);
}

#[tokio::test]
async fn the_key_is_sent_as_a_bearer_token() {
    let stand_in = StandIn::start(Script::always(Reply::completion("ok")));
    let (report, _) = call(&stand_in, Some(KEY), budget()).await;
    assert!(report.result.is_ok());

    let requests = stand_in.requests();
    let sent = &requests[0];
    assert_eq!(sent.method, "POST");
    assert_eq!(sent.path, "/v1/chat/completions");
    assert_eq!(
        sent.header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    assert_eq!(sent.header("content-type"), Some("application/json"));
}

#[tokio::test]
async fn no_authorization_header_is_sent_without_a_key() {
    let stand_in = StandIn::start(Script::always(Reply::completion("ok")));
    let (report, _) = call(&stand_in, None, budget()).await;
    assert!(report.result.is_ok());
    assert_eq!(stand_in.requests()[0].header("authorization"), None);
}

#[tokio::test]
async fn the_body_carries_a_strict_json_schema_format() {
    let stand_in = StandIn::start(Script::always(Reply::completion("ok")));
    let (report, _) = call(&stand_in, Some(KEY), budget()).await;
    assert!(report.result.is_ok());

    assert_eq!(
        stand_in.requests()[0].json(),
        json!({
            "model": "test-model",
            "messages": [
                {"role": "system", "content": "Опиши проблему."},
                {"role": "user", "content": "В подъезде темно."},
            ],
            "temperature": 0.0,
            "max_tokens": 512,
            "response_format": {
                "type": "json_schema",
                "json_schema": {
                    "name": "zayavka_draft",
                    "strict": true,
                    "schema": {"type": "object", "additionalProperties": false},
                },
            },
        })
    );
}

#[tokio::test]
async fn the_body_carries_a_json_object_format() {
    let stand_in = StandIn::start(Script::always(Reply::completion("ok")));
    let client = client(&format!("{}/", stand_in.base_url()), None, budget());
    let report = client
        .complete(
            &request(ResponseFormat::JsonObject),
            &CancellationToken::new(),
        )
        .await;
    assert!(report.result.is_ok());

    let sent = &stand_in.requests()[0];
    assert_eq!(sent.path, "/v1/chat/completions");
    assert_eq!(
        sent.json()["response_format"],
        json!({"type": "json_object"})
    );
    assert_eq!(sent.json()["max_tokens"], 512);
}

#[test]
fn client_new_rejects_bad_configuration() {
    let base = Url::parse("http://127.0.0.1:9/v1").unwrap();
    let with_key = |key: &str| Endpoint::new(base.clone(), Some(ApiKey::new(key.to_owned())));
    assert_eq!(
        Client::new(with_key("  "), budget()).unwrap_err(),
        LlmError::NoApiKey
    );
    let error = Client::new(with_key("sk-bad\u{7f}key"), budget()).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::BadConfig);
    assert!(!error.to_string().contains("sk-bad"), "{error}");
    let ftp = Endpoint::new(Url::parse("ftp://127.0.0.1/v1").unwrap(), None);
    assert_eq!(
        Client::new(ftp, budget()).unwrap_err().kind(),
        ErrorKind::BadConfig
    );
    let debug = format!("{:?}", Client::new(with_key(KEY), budget()).unwrap());
    assert!(!debug.contains(KEY), "{debug}");
}

fn object_request() -> ChatRequest {
    request(ResponseFormat::JsonObject)
}

async fn call_with(stand_in: &StandIn, request: &ChatRequest) -> CallReport {
    client(&stand_in.base_url(), Some(KEY), budget())
        .complete(request, &CancellationToken::new())
        .await
}

fn error_bodies(report: &CallReport) -> Vec<Option<&str>> {
    report
        .attempts
        .iter()
        .map(|attempt| attempt.error_body.as_deref())
        .collect()
}

// Issue 6, item 8: a server that refuses the response format is not down.

#[tokio::test]
async fn a_500_naming_response_format_is_a_refused_mode_and_not_retried() {
    let stand_in = StandIn::start(Script::always(Reply::llama_cpp_python_format_refusal()));
    let (report, _) = call(&stand_in, Some(KEY), budget()).await;

    let error = report.result.as_ref().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::SchemaModeUnsupported);
    assert!(!error.is_retryable() && !error.is_unavailable());
    assert_eq!(error.status(), Some(500));
    assert_eq!(error.suggested_mode(), Some(ResponseFormatKind::JsonObject));
    let message = error.to_string();
    assert!(message.contains("`json_schema`"), "{message}");
    assert!(message.contains("`json_object` mode"), "{message}");
    assert!(message.contains("response_format"), "{message}");
    assert_eq!(kinds(&report), [Some(ErrorKind::SchemaModeUnsupported)]);
    assert_eq!(reasons(&report), codes([None]));
    assert_eq!(statuses(&report), [Some(500)]);
    assert_eq!(stand_in.request_count(), 1);
}

#[tokio::test]
async fn a_400_or_422_saying_response_format_is_unsupported_is_a_refused_mode() {
    for (status, message) in [
        (
            400,
            "Invalid parameter: 'response_format' of type 'json_object' is not supported with this model.",
        ),
        (
            422,
            "Unrecognized request argument supplied: response_format",
        ),
    ] {
        let stand_in = StandIn::start(Script::always(Reply::format_refusal(status, message)));
        let report = call_with(&stand_in, &object_request()).await;

        let error = report.result.as_ref().unwrap_err();
        assert_eq!(
            error.kind(),
            ErrorKind::SchemaModeUnsupported,
            "HTTP {status}"
        );
        assert_eq!(error.suggested_mode(), Some(ResponseFormatKind::JsonSchema));
        let text = error.to_string();
        assert!(
            text.contains("`json_object`") && text.contains("`json_schema` mode"),
            "{text}"
        );
        assert_eq!(reasons(&report), codes([None]));
        assert_eq!(stand_in.request_count(), 1, "HTTP {status}");
    }
}

#[tokio::test]
async fn a_plain_500_is_still_unavailable_and_retried() {
    let stand_in = StandIn::start(
        Script::new()
            .then(Reply::json(
                500,
                json!({"error": {"message": "CUDA out of memory", "type": "server_error"}}),
            ))
            .then(Reply::completion("ok")),
    );
    let (report, _) = call(&stand_in, Some(KEY), budget()).await;
    assert!(report.result.is_ok(), "{:?}", report.result);
    assert_eq!(kinds(&report), [Some(ErrorKind::Unavailable), None]);
    assert_eq!(reasons(&report), codes([Some("http_500"), None]));
    assert_eq!(stand_in.request_count(), 2);
}

#[test]
fn only_refusals_of_the_format_itself_count_as_a_refused_mode() {
    for (status, body, refused) in [
        (
            500,
            "response_format type must be one of \"text\" or \"json_object\", but got: json_schema",
            true,
        ),
        (501, "response_format is not implemented", true),
        (500, "Internal Server Error", false),
        (503, "response_format not supported", false),
        (
            400,
            "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.",
            true,
        ),
        (
            400,
            "Response_Format: unknown variant `json_schema`, expected `text` or `json_object`",
            true,
        ),
        (
            422,
            "Extra inputs are not permitted: body.response_format",
            true,
        ),
        (
            422,
            "Input should be 'text' or 'json_object' (loc: body, response_format, type)",
            true,
        ),
        // The schema is at fault, not the mode: switching modes would hide the bug.
        (
            400,
            "Invalid schema for response_format 'zayavka_draft': 'minLength' is not supported",
            false,
        ),
        (500, "response_format: JSON schema conversion failed", false),
        (400, "Invalid value for 'temperature': not supported", false),
        (404, "response_format not supported", false),
    ] {
        assert_eq!(
            refuses_response_format(status, body, ResponseFormatKind::JsonSchema),
            refused,
            "{status} {body}"
        );
    }
}

// Issue 6, item 8: the record keeps each failed attempt's body, redacted and capped.

#[tokio::test]
async fn failed_attempts_keep_their_body_and_the_success_none() {
    let busy = json!({"error": {"message": "overloaded", "type": "server_error"}}).to_string();
    let stand_in = StandIn::start(
        Script::new()
            .then(Reply::status(503, busy.clone()))
            .then(Reply::status(502, ""))
            .then(Reply::completion("ok")),
    );
    let (report, _) = call(&stand_in, Some(KEY), budget()).await;
    assert!(report.result.is_ok(), "{:?}", report.result);
    assert_eq!(error_bodies(&report), [Some(busy.as_str()), Some(""), None]);
}

#[tokio::test]
async fn a_200_that_is_not_a_completion_keeps_its_body() {
    let stand_in = StandIn::start(
        Script::new()
            .then(Reply::status(200, "<html>login</html>"))
            .then(Reply::completion("ok")),
    );
    let (report, _) = call(&stand_in, Some(KEY), budget()).await;
    assert_eq!(error_bodies(&report), [Some("<html>login</html>"), None]);
}

#[tokio::test]
async fn a_long_error_body_is_cut_at_four_kibibytes_on_a_character_boundary() {
    // Two-byte letters after one ASCII byte put the 4,096th byte in the middle of a letter.
    let long = format!("x{}", "я".repeat(10_000));
    let stand_in = StandIn::start(Script::always(Reply::status(400, long.clone())));
    let (report, _) = call(&stand_in, Some(KEY), budget()).await;

    let body = report.attempts[0].error_body.as_deref().unwrap();
    let kept = body.strip_suffix("…[cut]").expect("the cut is marked");
    assert_eq!(kept.len(), ERROR_BODY_RECORD_BYTES - 1);
    assert!(long.starts_with(kept));
    assert!(error_kind(&report) == ErrorKind::BadRequest);
}

#[test]
fn attempt_json_is_unchanged_for_existing_values_and_old_records_still_read() {
    let old = r#"{"number":2,"started_at_unix_ms":1700000000000,"duration_ms":12,"http_status":503,"error_kind":"unavailable","retry_reason":"http_503","usage":null}"#;
    let attempt: Attempt = serde_json::from_str(old).unwrap();
    assert_eq!(attempt.retry_reason, Some(RetryReason::HttpStatus(503)));
    assert_eq!(attempt.error_body, None);
    assert_eq!(serde_json::to_string(&attempt).unwrap(), old);

    let with_body = Attempt {
        retry_reason: Some(RetryReason::RetryAfter),
        error_body: Some("{}".to_owned()),
        ..attempt
    };
    let json = serde_json::to_string(&with_body).unwrap();
    assert!(
        json.ends_with(r#""retry_reason":"retry_after","usage":null,"error_body":"{}"}"#),
        "{json}"
    );
    assert_eq!(serde_json::from_str::<Attempt>(&json).unwrap(), with_body);
}

// Issue 6, item 7: the key is removed from every body the adapter hands out.

/// Everything a report carries that could reach a screen, a log or a record.
fn everything_shown(report: &CallReport) -> String {
    let attempts = serde_json::to_string(&report.attempts).unwrap();
    match &report.result {
        Ok(completion) => format!(
            "{attempts} {completion:?} {}",
            serde_json::to_string(completion).unwrap()
        ),
        Err(error) => format!("{attempts} {error} {error:?}"),
    }
}

fn assert_no_key(shown: &str) {
    assert!(!shown.contains(KEY), "{shown}");
    assert!(!shown.contains("0123456789abcdef"), "{shown}");
}

#[tokio::test]
async fn a_key_echoed_in_a_200_answer_is_redacted_and_the_body_stays_replayable() {
    let body = chat_completion_body(Some(&format!("твой ключ {ECHO_KEY}")), None, "stop")
        .replace("standin-model", &format!("model-{ECHO_KEY}"))
        .replace(
            "\"object\"",
            &format!("\"authorization\":\"{ECHO_AUTHORIZATION}\",\"object\""),
        );
    let stand_in = StandIn::start(Script::always(Reply::echo_credentials(200, body)));
    let (report, _) = call(&stand_in, Some(KEY), budget()).await;

    let completion = report.result.as_ref().unwrap();
    assert_no_key(&everything_shown(&report));
    assert_eq!(completion.content.as_deref(), Some("твой ключ [redacted]"));
    assert_eq!(completion.model.as_deref(), Some("model-[redacted]"));
    let replayed = parse_chat_completion(&completion.raw_body).unwrap();
    assert_eq!(replayed.content, completion.content);
    assert_eq!(replayed.model, completion.model);
    let raw: serde_json::Value = serde_json::from_str(&completion.raw_body).unwrap();
    assert_eq!(raw["authorization"], "[redacted]");
}

#[tokio::test]
async fn a_key_echoed_in_a_400_answer_is_redacted_from_the_message_and_the_body() {
    let stand_in = StandIn::start(Script::always(Reply::echo_credentials(
        400,
        format!(
            r#"{{"error":{{"message":"model not found for key {ECHO_KEY}","type":"invalid_request_error"}}}}"#
        ),
    )));
    let (report, _) = call(&stand_in, Some(KEY), budget()).await;
    assert_eq!(error_kind(&report), ErrorKind::BadRequest);
    let shown = everything_shown(&report);
    assert_no_key(&shown);
    assert!(
        shown.contains("model not found for key [redacted]"),
        "{shown}"
    );
}

#[tokio::test]
async fn a_key_echoed_in_500_answers_is_redacted_from_every_attempt() {
    let stand_in = StandIn::start(Script::always(Reply::echo_credentials(
        500,
        format!(r#"{{"error":"crashed while serving {ECHO_KEY}"}}"#),
    )));
    let (report, _) = call(&stand_in, Some(KEY), budget()).await;
    assert_eq!(error_kind(&report), ErrorKind::Unavailable);
    assert_eq!(report.attempts.len(), 3);
    assert_no_key(&everything_shown(&report));
    for body in error_bodies(&report) {
        assert_eq!(
            body,
            Some(r#"{"error":"crashed while serving [redacted]"}"#)
        );
    }
}

#[tokio::test]
async fn a_key_echoed_as_a_header_line_or_in_a_redirect_is_redacted() {
    let stand_in = StandIn::start(
        Script::new()
            .then(
                Reply::echo_credentials(
                    502,
                    format!(
                        "upstream said:\nAuthorization: {ECHO_AUTHORIZATION}\nX-Key: {ECHO_KEY}\n"
                    ),
                )
                .with_header("content-type", "text/plain"),
            )
            .then(Reply::echo_credentials(307, "").with_header(
                "location",
                &format!("https://elsewhere.example/v1?key={ECHO_KEY}"),
            )),
    );
    let (report, _) = call(&stand_in, Some(KEY), budget()).await;
    assert_eq!(error_kind(&report), ErrorKind::BadConfig);
    let shown = everything_shown(&report);
    assert_no_key(&shown);
    assert!(shown.contains("elsewhere.example"), "{shown}");
    assert_eq!(
        error_bodies(&report)[0],
        Some("upstream said:\nAuthorization: [redacted]\nX-Key: [redacted]\n")
    );
    assert_eq!(stand_in.request_count(), 2);
}

// Issue 6, item 8: attempt numbers stay unique across re-asks.

fn numbers(report: &CallReport) -> Vec<u32> {
    report
        .attempts
        .iter()
        .map(|attempt| attempt.number)
        .collect()
}

#[tokio::test]
async fn complete_from_continues_the_numbering_under_the_same_budget() {
    let stand_in = StandIn::start(
        Script::new()
            .then(Reply::status(503, "busy"))
            .then(Reply::completion("ok"))
            .then(Reply::status(503, "busy"))
            .then(Reply::status(503, "busy"))
            .then(Reply::status(503, "busy"))
            .then(Reply::completion("ok")),
    );
    let client = client(&stand_in.base_url(), Some(KEY), budget());
    let cancel = CancellationToken::new();

    let first = client.complete(&strict_request(), &cancel).await;
    assert_eq!(numbers(&first), [1, 2]);
    let reask = client.complete_from(&strict_request(), &cancel, 3).await;
    // The budget's three attempts apply to the re-ask alone.
    assert_eq!(numbers(&reask), [3, 4, 5]);
    assert_eq!(error_kind(&reask), ErrorKind::Unavailable);
    let from_zero = client.complete_from(&strict_request(), &cancel, 0).await;
    assert_eq!(numbers(&from_zero), [1]);
    assert_eq!(stand_in.request_count(), 6);
}

// Issue 6, item 7: doctor counts 404 and 400 from the model list as a problem.

async fn probe(stand_in: &StandIn) -> Result<u16, LlmError> {
    client(&stand_in.base_url(), Some(KEY), budget())
        .probe(&CancellationToken::new())
        .await
}

#[tokio::test]
async fn the_model_list_answering_404_or_400_is_an_error() {
    for status in [404, 400] {
        let stand_in = StandIn::start(Script::always(Reply::echo_credentials(
            status,
            format!(r#"{{"error":{{"message":"no route for {ECHO_KEY}","type":"not_found"}}}}"#),
        )));
        let error = probe(&stand_in).await.unwrap_err();
        assert_eq!(error.kind(), ErrorKind::BadRequest, "HTTP {status}");
        assert_eq!(error.status(), Some(status));
        let text = error.to_string();
        assert!(
            text.contains("model list") && text.contains("no route for [redacted]"),
            "{text}"
        );
        assert_no_key(&format!("{error:?}"));
        assert_eq!(stand_in.requests()[0].path, "/v1/models");
    }
}

#[tokio::test]
async fn the_model_list_answering_otherwise_reports_its_status() {
    for status in [200, 401, 403, 500] {
        let stand_in = StandIn::start(Script::always(Reply::json(status, json!({"data": []}))));
        assert_eq!(probe(&stand_in).await, Ok(status));
    }
    let error = client(&unused_port_url(), None, budget())
        .probe(&CancellationToken::new())
        .await
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Unavailable);
}

// Issue 6, item 8: doctor finds out which schema modes a server accepts.

async fn probe_modes(base_url: &str, cancel: &CancellationToken) -> SchemaModeReport {
    client(base_url, Some(KEY), budget())
        .probe_schema_modes(
            "tiny-model",
            "zayavka_probe",
            &json!({"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"], "additionalProperties": false}),
            cancel,
        )
        .await
}

fn supports(report: &SchemaModeReport) -> Vec<(&str, &str)> {
    report
        .probes
        .iter()
        .map(|probe| (probe.mode.code(), probe.support.as_str()))
        .collect()
}

#[tokio::test]
async fn probing_a_llama_cpp_python_server_recommends_json_object() {
    let stand_in = StandIn::start(
        Script::new()
            .then(Reply::llama_cpp_python_format_refusal())
            .then(Reply::completion("{\"ok\":true}")),
    );
    let report = probe_modes(&stand_in.base_url(), &CancellationToken::new()).await;

    assert_eq!(
        supports(&report),
        [("json_schema", "refused"), ("json_object", "accepted")]
    );
    assert_eq!(report.recommended(), Some(ResponseFormatKind::JsonObject));
    let refused = report.support(ResponseFormatKind::JsonSchema).unwrap();
    assert_eq!(
        refused.error().unwrap().kind(),
        ErrorKind::SchemaModeUnsupported
    );
    let attempt = report.probes[0].attempt.as_ref().unwrap();
    assert_eq!(attempt.http_status, Some(500));
    assert!(
        attempt
            .error_body
            .as_deref()
            .unwrap()
            .contains("response_format")
    );

    let requests = stand_in.requests();
    assert_eq!(requests.len(), 2);
    let schema_body = requests[0].json();
    assert_eq!(schema_body["model"], "tiny-model");
    assert_eq!(schema_body["max_tokens"], 32);
    assert_eq!(
        schema_body["response_format"]["json_schema"]["name"],
        "zayavka_probe"
    );
    assert_eq!(
        schema_body["response_format"]["json_schema"]["strict"],
        true
    );
    assert_eq!(
        schema_body["response_format"]["json_schema"]["schema"]["required"],
        json!(["ok"])
    );
    assert_eq!(
        requests[1].json()["response_format"],
        json!({"type": "json_object"})
    );
    assert!(requests[1].body.contains("JSON"));
}

#[tokio::test]
async fn probing_a_server_that_takes_both_recommends_json_schema() {
    let stand_in = StandIn::start(Script::always(Reply::completion_with(
        Some("{\"ok\""),
        None,
        "length",
    )));
    let report = probe_modes(&stand_in.base_url(), &CancellationToken::new()).await;
    assert_eq!(
        supports(&report),
        [("json_schema", "accepted"), ("json_object", "accepted")]
    );
    assert_eq!(report.recommended(), Some(ResponseFormatKind::JsonSchema));
    assert_eq!(stand_in.request_count(), 2);
}

#[tokio::test]
async fn probing_a_server_that_is_down_fails_each_mode_once_without_retries() {
    let busy = StandIn::start(Script::always(Reply::status(503, "busy")));
    let report = probe_modes(&busy.base_url(), &CancellationToken::new()).await;
    assert_eq!(
        supports(&report),
        [("json_schema", "failed"), ("json_object", "failed")]
    );
    assert_eq!(report.recommended(), None);
    assert_eq!(busy.request_count(), 2);

    let report = probe_modes(&unused_port_url(), &CancellationToken::new()).await;
    for probe in &report.probes {
        assert_eq!(
            probe.support.error().unwrap().kind(),
            ErrorKind::Unavailable
        );
        assert_eq!(probe.attempt.as_ref().unwrap().retry_reason, None);
    }
}

#[tokio::test]
async fn a_cancelled_probe_sends_nothing() {
    let stand_in = StandIn::start(Script::always(Reply::completion("{}")));
    let cancel = CancellationToken::new();
    cancel.cancel();
    let report = probe_modes(&stand_in.base_url(), &cancel).await;
    assert_eq!(
        supports(&report),
        [("json_schema", "failed"), ("json_object", "failed")]
    );
    assert!(report.probes.iter().all(|probe| probe.attempt.is_none()
        && probe.support == ModeSupport::Failed(LlmError::Cancelled)));
    assert_eq!(stand_in.request_count(), 0);
}

#[test]
fn with_budget_keeps_the_endpoint_and_refuses_an_impossible_budget() {
    let base = client("http://127.0.0.1:9/v1", Some(KEY), budget());
    let mut shorter = budget();
    shorter.max_attempts = 1;
    let derived = base.with_budget(shorter.clone()).unwrap();
    assert_eq!(derived.budget, shorter);
    assert_eq!(derived.url, base.url);
    let header = |client: &Client| match &client.credentials {
        Credentials::Fixed(value) => Some(value.clone()),
        _ => None,
    };
    assert_eq!(header(&derived), header(&base));
    assert!(header(&base).is_some());
    shorter.max_attempts = 0;
    assert!(matches!(
        base.with_budget(shorter),
        Err(LlmError::BadConfig { .. })
    ));
}

#[tokio::test]
async fn the_observer_hears_each_attempt_and_each_wait_with_its_status() {
    let stand_in = StandIn::start(
        Script::new()
            .then(Reply::status(503, "busy"))
            .then(Reply::status(429, "slow down").with_header("Retry-After", "0"))
            .then(Reply::completion("ok")),
    );
    let client = client(&stand_in.base_url(), Some(KEY), budget());
    let events = std::sync::Mutex::new(Vec::new());
    let report = client
        .complete_observed(&strict_request(), &CancellationToken::new(), 4, &|event| {
            events.lock().unwrap().push(event);
        })
        .await;
    assert!(report.result.is_ok(), "{:?}", report.result);
    let events = events.into_inner().unwrap();
    let waits: Vec<Duration> = events
        .iter()
        .filter_map(|event| match event {
            CallEvent::Waiting { wait, .. } => Some(*wait),
            CallEvent::Sending { .. } => None,
        })
        .collect();
    assert_eq!(
        events,
        [
            CallEvent::Sending { number: 4 },
            CallEvent::Waiting {
                number: 4,
                http_status: Some(503),
                reason: RetryReason::HttpStatus(503),
                wait: waits[0],
            },
            CallEvent::Sending { number: 5 },
            CallEvent::Waiting {
                number: 5,
                http_status: Some(429),
                reason: RetryReason::RetryAfter,
                wait: waits[1],
            },
            CallEvent::Sending { number: 6 },
        ]
    );
    // The waits are the ones the record keeps: the second is the provider's own.
    assert_eq!(waits[1], Duration::ZERO);
    assert_eq!(numbers(&report), [4, 5, 6]);
}
