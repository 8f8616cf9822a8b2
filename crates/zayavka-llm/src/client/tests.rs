//! Behaviour of [`Client::complete`] against a real loopback server that misbehaves on cue.
//!
//! Budgets here are tens to hundreds of milliseconds so the whole module runs in seconds;
//! lower bounds on elapsed time are exact (the client must have waited), upper bounds are
//! loose because a busy machine may run slowly.

use std::time::{Duration, Instant, SystemTime};

use serde_json::json;
use zayavka_standin::{CANNED_USAGE, Reply, Script, StandIn, chat_completion_body};

use super::*;
use crate::request::{Message, ResponseFormat};

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

fn reasons(report: &CallReport) -> Vec<Option<&str>> {
    report
        .attempts
        .iter()
        .map(|attempt| attempt.retry_reason.as_deref())
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
    assert_eq!(reasons(&report), [Some("retry_after"), None]);
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
    assert_eq!(reasons(&report), [Some("retry_after"), None]);
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
    assert_eq!(reasons(&report), [Some("http_503"), None]);
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
    assert_eq!(reasons(&report), [Some("http_500"), Some("http_500"), None]);
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
    assert_eq!(reasons(&report), [Some("http_408"), None]);
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
    assert_eq!(reasons(&report), [None]);
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
    assert_eq!(reasons(&report), [None]);
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
        [Some("connect_error"), Some("connect_error"), None]
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
    assert_eq!(reasons(&report), [Some("connection_error"), None]);
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
    assert_eq!(reasons(&report), [Some("body_error"), None]);
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
    assert_eq!(reasons(&report), [Some("timeout"), None]);
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
    assert_eq!(reasons(&report), [Some("http_502"), None]);
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
    assert_eq!(reasons(&report), [None]);
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
    assert_eq!(reasons(&report), [Some("invalid_response"), None]);
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
    assert_eq!(reasons(&report), [None]);
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
    assert_eq!(reasons(&report), [Some("http_503")]);
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
    assert_eq!(reasons(&report), [None]);
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
    assert_eq!(reasons(&report), [None]);
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
