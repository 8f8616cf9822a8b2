//! The protocols and authentication schemes beyond OpenAI's chat completions with a bearer
//! key: the Responses API, Yandex AI Studio's `Api-Key` and folder header, and GigaChat's
//! token exchange and its variant of chat completions, against a real loopback server.

use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use serde_json::{Value, json};
use zayavka_standin::{ECHO_AUTHORIZATION, ECHO_KEY, RecordedRequest, Reply, Script, StandIn};

use super::*;
use crate::error::ErrorKind;
use crate::request::{Message, ResponseFormat};

const MS: Duration = Duration::from_millis(1);
const YANDEX_KEY: &str = "AQVN-yandex-canary-key-31337";
const FOLDER: &str = "b1gfolder0123";
const GIGACHAT_KEY: &str = "Z2lnYWNoYXQtY2FuYXJ5LWF1dGgta2V5";
const TOKEN: &str = "gigachat-canary-token-0001";
const SECOND_TOKEN: &str = "gigachat-canary-token-0002";
const OAUTH_PATH: &str = "/api/v2/oauth";

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

fn draft_format() -> ResponseFormat {
    ResponseFormat::JsonSchema {
        name: "zayavka_draft".to_owned(),
        schema: json!({"type": "object", "additionalProperties": false}),
        strict: true,
    }
}

fn request(response_format: ResponseFormat) -> ChatRequest {
    ChatRequest {
        model: format!("gpt://{FOLDER}/yandexgpt/latest"),
        messages: vec![
            Message::system("Опиши проблему."),
            Message::user("В подъезде темно."),
        ],
        temperature: 0.0,
        max_tokens: 512,
        response_format,
    }
}

fn yandex(stand_in: &StandIn, protocol: Protocol) -> Client {
    let endpoint = Endpoint::yandex_ai_studio(
        Url::parse(&stand_in.base_url()).unwrap(),
        ApiKey::new(YANDEX_KEY.to_owned()),
        FOLDER,
        protocol,
    );
    Client::new(endpoint, budget()).unwrap()
}

fn yandex_endpoint(stand_in: &StandIn) -> Endpoint {
    Endpoint::yandex_ai_studio(
        Url::parse(&stand_in.base_url()).unwrap(),
        ApiKey::new(YANDEX_KEY.to_owned()),
        FOLDER,
        Protocol::ChatCompletions,
    )
}

fn gigachat(stand_in: &StandIn) -> Client {
    gigachat_with(stand_in, budget())
}

fn gigachat_with(stand_in: &StandIn, budget: Budget) -> Client {
    let endpoint = Endpoint::gigachat(
        Url::parse(&stand_in.base_url()).unwrap(),
        ApiKey::new(GIGACHAT_KEY.to_owned()),
        Url::parse(&format!("http://{}{OAUTH_PATH}", stand_in.addr())).unwrap(),
        "GIGACHAT_API_PERS",
    );
    Client::new(endpoint, budget).unwrap()
}

fn in_ms(from_now: Duration) -> u64 {
    unix_ms(SystemTime::now() + from_now)
}

fn token_reply(token: &str, lifetime: Duration) -> Reply {
    Reply::json(
        200,
        json!({"access_token": token, "expires_at": in_ms(lifetime)}),
    )
}

const HALF_AN_HOUR: Duration = Duration::from_secs(30 * 60);

fn token_requests(stand_in: &StandIn) -> Vec<RecordedRequest> {
    stand_in
        .requests()
        .into_iter()
        .filter(|request| request.path == OAUTH_PATH)
        .collect()
}

fn api_requests(stand_in: &StandIn) -> Vec<RecordedRequest> {
    stand_in
        .requests()
        .into_iter()
        .filter(|request| request.path != OAUTH_PATH)
        .collect()
}

fn responses_body(output_text: &str) -> Value {
    json!({
        "id": "resp_1",
        "object": "response",
        "status": "completed",
        "model": format!("gpt://{FOLDER}/aliceai-llm-flash/latest"),
        "output": [{
            "type": "message",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": output_text, "annotations": []}],
        }],
        "usage": {"input_tokens": 40, "output_tokens": 9, "total_tokens": 49},
    })
}

/// Everything a call hands out, in one string, for canary checks.
fn everything_shown(report: &CallReport, events: &[CallEvent]) -> String {
    let attempts = serde_json::to_string(&report.attempts).unwrap();
    let result = match &report.result {
        Ok(completion) => format!("{completion:?}"),
        Err(error) => format!("{error} {error:?}"),
    };
    format!("{attempts} {result} {report:?} {events:?}")
}

fn assert_no_secret(shown: &str) {
    for secret in [YANDEX_KEY, GIGACHAT_KEY, TOKEN, SECOND_TOKEN, "canary"] {
        assert!(!shown.contains(secret), "{secret} in {shown}");
    }
}

async fn observed(client: &Client, request: &ChatRequest) -> (CallReport, Vec<CallEvent>) {
    let events = Mutex::new(Vec::new());
    let report = client
        .complete_observed(request, &CancellationToken::new(), 1, &|event| {
            events.lock().unwrap().push(event);
        })
        .await;
    (report, events.into_inner().unwrap())
}

#[tokio::test]
async fn the_responses_api_gets_input_and_text_format_and_its_answer_is_read() {
    let stand_in = StandIn::start(Script::always(Reply::json(
        200,
        responses_body("{\"outcome\":\"draft\"}"),
    )));
    let client = yandex(&stand_in, Protocol::Responses);
    let report = client
        .complete(&request(draft_format()), &CancellationToken::new())
        .await;

    let completion = report.result.as_ref().unwrap();
    assert_eq!(
        completion.content.as_deref(),
        Some("{\"outcome\":\"draft\"}")
    );
    assert_eq!(completion.finish_reason.as_deref(), Some("stop"));
    assert_eq!(completion.usage.map(|usage| usage.total_tokens), Some(49));
    assert_eq!(report.attempts[0].usage, completion.usage);
    let sent = &stand_in.requests()[0];
    assert_eq!(sent.path, "/v1/responses");
    let body = sent.json();
    assert_eq!(body["input"][1]["content"], "В подъезде темно.");
    assert_eq!(body["max_output_tokens"], 512);
    assert_eq!(
        body["text"]["format"],
        json!({"type": "json_schema", "name": "zayavka_draft", "schema": {"type": "object", "additionalProperties": false}, "strict": true})
    );
    assert_eq!(body.get("messages"), None);
    assert_eq!(body.get("response_format"), None);
}

#[tokio::test]
async fn the_simplified_responses_shape_is_read_too() {
    let stand_in = StandIn::start(Script::always(Reply::json(
        200,
        json!({"output_text": "{\"outcome\":\"draft\"}", "usage": {"input_tokens": 5, "output_tokens": 4}}),
    )));
    let report = yandex(&stand_in, Protocol::Responses)
        .complete(
            &request(ResponseFormat::JsonObject),
            &CancellationToken::new(),
        )
        .await;
    let completion = report.result.unwrap();
    assert_eq!(
        completion.content.as_deref(),
        Some("{\"outcome\":\"draft\"}")
    );
    assert_eq!(completion.usage.unwrap().total_tokens, 9);
    assert_eq!(
        stand_in.requests()[0].json()["text"]["format"],
        json!({"type": "json_object"})
    );
}

#[tokio::test]
async fn an_incomplete_response_is_a_truncation_and_a_refusal_part_a_refusal() {
    let incomplete = json!({
        "object": "response",
        "status": "incomplete",
        "incomplete_details": {"reason": "max_output_tokens"},
        "output": [{"type": "message", "content": [{"type": "output_text", "text": "{\"outco"}]}],
    });
    let refused = json!({
        "object": "response",
        "status": "completed",
        "output": [{"type": "message", "content": [{"type": "refusal", "refusal": "Я не могу помочь с этим."}]}],
    });
    let stand_in = StandIn::start(
        Script::new()
            .then(Reply::json(200, incomplete))
            .then(Reply::json(200, refused)),
    );
    let client = yandex(&stand_in, Protocol::Responses);
    let cut = client
        .complete(&request(draft_format()), &CancellationToken::new())
        .await
        .result
        .unwrap();
    // The same word a chat answer cut by `max_tokens` carries, so callers need no branch.
    assert_eq!(cut.finish_reason.as_deref(), Some("length"));
    let refusal = client
        .complete(&request(draft_format()), &CancellationToken::new())
        .await
        .result
        .unwrap();
    assert_eq!(refusal.refusal.as_deref(), Some("Я не могу помочь с этим."));
    assert_eq!(refusal.content, None);
}

#[tokio::test]
async fn yandex_gets_its_api_key_and_folder_on_both_protocols() {
    for (protocol, reply, path) in [
        (
            Protocol::ChatCompletions,
            Reply::completion("{}"),
            "/v1/chat/completions",
        ),
        (
            Protocol::Responses,
            Reply::json(200, responses_body("{}")),
            "/v1/responses",
        ),
    ] {
        let stand_in = StandIn::start(Script::always(reply));
        let report = yandex(&stand_in, protocol)
            .complete(&request(draft_format()), &CancellationToken::new())
            .await;
        assert!(report.result.is_ok(), "{protocol}: {:?}", report.result);
        let sent = &stand_in.requests()[0];
        assert_eq!(sent.path, path);
        assert_eq!(
            sent.header("authorization"),
            Some(format!("Api-Key {YANDEX_KEY}").as_str())
        );
        assert_eq!(sent.header("x-folder-id"), Some(FOLDER));
    }
}

#[tokio::test]
async fn a_yandex_key_echoed_in_a_401_is_in_no_error_attempt_or_event() {
    let stand_in = StandIn::start(Script::always(Reply::echo_credentials(
        401,
        format!(
            r#"{{"error":{{"message":"Unknown api key '{ECHO_KEY}' in {ECHO_AUTHORIZATION}","code":401}}}}"#
        ),
    )));
    let (report, events) = observed(
        &yandex(&stand_in, Protocol::Responses),
        &request(draft_format()),
    )
    .await;
    let error = report.result.as_ref().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Auth);
    assert_eq!(stand_in.request_count(), 1);
    let shown = everything_shown(&report, &events);
    assert_no_secret(&shown);
    assert!(
        report.attempts[0]
            .error_body
            .as_deref()
            .unwrap()
            .contains("[redacted]"),
        "{shown}"
    );
}

#[tokio::test]
async fn a_refused_responses_format_names_the_other_mode() {
    let stand_in = StandIn::start(Script::always(Reply::json(
        400,
        json!({"error": {"message": "Invalid value for text.format: json_schema is not supported", "type": "invalid_request_error"}}),
    )));
    let error = yandex(&stand_in, Protocol::Responses)
        .complete(&request(draft_format()), &CancellationToken::new())
        .await
        .result
        .unwrap_err();
    assert!(error.is_schema_mode_unsupported(), "{error:?}");
    assert_eq!(error.suggested_mode(), Some(ResponseFormatKind::JsonObject));
}

#[tokio::test]
async fn twenty_gigachat_calls_through_one_client_make_one_token_exchange() {
    let stand_in = StandIn::start(
        Script::new()
            .then(token_reply(TOKEN, HALF_AN_HOUR))
            .then(Reply::completion("{\"outcome\":\"draft\"}"))
            .repeat_last(),
    );
    let client = gigachat(&stand_in);
    // Ten at once through clones, which must wait for the one exchange, then ten in a row.
    let concurrent: Vec<_> = (0..10)
        .map(|_| {
            let client = client.clone();
            tokio::spawn(async move {
                client
                    .complete(&request(draft_format()), &CancellationToken::new())
                    .await
            })
        })
        .collect();
    let mut reports = Vec::new();
    for task in concurrent {
        reports.push(task.await.unwrap());
    }
    for _ in 0..10 {
        reports.push(
            client
                .complete(&request(draft_format()), &CancellationToken::new())
                .await,
        );
    }
    assert!(reports.iter().all(|report| report.result.is_ok()));
    let exchanges: Vec<&TokenExchange> = reports
        .iter()
        .flat_map(|report| &report.attempts)
        .filter_map(|attempt| attempt.token_exchange.as_ref())
        .collect();
    assert_eq!(exchanges.len(), 1);
    assert_eq!(exchanges[0].http_status, Some(200));

    let tokens = token_requests(&stand_in);
    assert_eq!(tokens.len(), 1);
    let exchange = &tokens[0];
    assert_eq!(exchange.method, "POST");
    assert_eq!(
        exchange.header("authorization"),
        Some(format!("Basic {GIGACHAT_KEY}").as_str())
    );
    assert_eq!(
        exchange.header("content-type"),
        Some("application/x-www-form-urlencoded")
    );
    assert_eq!(exchange.header("accept"), Some("application/json"));
    assert_eq!(exchange.body, "scope=GIGACHAT_API_PERS");
    let rquid = uuid::Uuid::parse_str(exchange.header("rquid").unwrap()).unwrap();
    assert_eq!(rquid.get_version_num(), 4);

    let calls = api_requests(&stand_in);
    assert_eq!(calls.len(), 20);
    for call in &calls {
        assert_eq!(call.path, "/v1/chat/completions");
        assert_eq!(
            call.header("authorization"),
            Some(format!("Bearer {TOKEN}").as_str())
        );
        assert_eq!(
            call.json()["response_format"],
            json!({"type": "json_schema", "schema": {"type": "object", "additionalProperties": false}})
        );
    }
}

#[tokio::test]
async fn a_token_about_to_expire_is_exchanged_again() {
    let stand_in = StandIn::start(
        Script::new()
            // Inside the minute before expiry: used for its own call, then replaced.
            .then(token_reply(TOKEN, Duration::from_secs(30)))
            .then(Reply::completion("{}"))
            .then(token_reply(SECOND_TOKEN, HALF_AN_HOUR))
            .then(Reply::completion("{}"))
            .then(Reply::completion("{}")),
    );
    let client = gigachat(&stand_in);
    let mut exchanged = Vec::new();
    for _ in 0..3 {
        let report = client
            .complete(&request(draft_format()), &CancellationToken::new())
            .await;
        assert!(report.result.is_ok(), "{:?}", report.result);
        exchanged.push(report.attempts[0].token_exchange.is_some());
    }
    assert_eq!(exchanged, [true, true, false]);
    assert_eq!(token_requests(&stand_in).len(), 2);
    let bearers: Vec<Option<String>> = api_requests(&stand_in)
        .iter()
        .map(|call| call.header("authorization").map(str::to_owned))
        .collect();
    assert_eq!(
        bearers,
        [
            Some(format!("Bearer {TOKEN}")),
            Some(format!("Bearer {SECOND_TOKEN}")),
            Some(format!("Bearer {SECOND_TOKEN}")),
        ]
    );
}

#[tokio::test]
async fn a_401_to_a_kept_token_exchanges_once_more_and_a_401_to_a_fresh_one_is_final() {
    let stand_in = StandIn::start(
        Script::new()
            .then(token_reply(TOKEN, HALF_AN_HOUR))
            .then(Reply::completion("{}"))
            .then(Reply::json(
                401,
                json!({"status": 401, "message": "Token has expired"}),
            ))
            .then(token_reply(SECOND_TOKEN, HALF_AN_HOUR))
            .then(Reply::completion("{}"))
            .then(Reply::json(
                401,
                json!({"status": 401, "message": "Unauthorized"}),
            ))
            .then(token_reply(TOKEN, HALF_AN_HOUR))
            .then(Reply::json(
                401,
                json!({"status": 401, "message": "Unauthorized"}),
            )),
    );
    // One attempt only: the exchange after a 401 does not use up the budget's attempts.
    let client = gigachat_with(
        &stand_in,
        Budget {
            max_attempts: 1,
            ..budget()
        },
    );
    let first = client
        .complete(&request(draft_format()), &CancellationToken::new())
        .await;
    assert!(first.result.is_ok());

    let (second, events) = observed(&client, &request(draft_format())).await;
    assert!(second.result.is_ok(), "{:?}", second.result);
    let numbers: Vec<u32> = second.attempts.iter().map(|a| a.number).collect();
    assert_eq!(numbers, [1, 2]);
    assert_eq!(second.attempts[0].http_status, Some(401));
    assert_eq!(
        second.attempts[0].retry_reason,
        Some(RetryReason::TokenRejected)
    );
    assert_eq!(second.attempts[0].token_exchange, None);
    assert_eq!(
        second.attempts[1].token_exchange.map(|e| e.http_status),
        Some(Some(200))
    );
    assert!(matches!(
        events[1],
        CallEvent::Waiting {
            reason: RetryReason::TokenRejected,
            wait: Duration::ZERO,
            ..
        }
    ));

    // Rejected again: exchanged once more, and the fresh token's 401 ends the call.
    let third = client
        .complete(&request(draft_format()), &CancellationToken::new())
        .await;
    let error = third.result.as_ref().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Auth);
    assert_eq!(third.attempts.len(), 2);
    assert_eq!(token_requests(&stand_in).len(), 3);
    assert_eq!(stand_in.request_count(), 8);
}

#[tokio::test]
async fn the_function_call_mode_round_trips() {
    let answer = json!({
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": "", "function_call": {"name": "zayavka_draft", "arguments": {"outcome": "draft", "title": "Темно"}}},
            "finish_reason": "function_call",
        }],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    });
    let stand_in = StandIn::start(
        Script::new()
            .then(token_reply(TOKEN, HALF_AN_HOUR))
            .then(Reply::json(200, answer)),
    );
    let format = ResponseFormat::FunctionCall {
        name: "zayavka_draft".to_owned(),
        description: "Черновик заявки".to_owned(),
        parameters: json!({"type": "object"}),
    };
    let completion = gigachat(&stand_in)
        .complete(&request(format), &CancellationToken::new())
        .await
        .result
        .unwrap();
    let content: Value = serde_json::from_str(completion.content.as_deref().unwrap()).unwrap();
    assert_eq!(content, json!({"outcome": "draft", "title": "Темно"}));
    let body = api_requests(&stand_in)[0].json();
    assert_eq!(body["function_call"], json!({"name": "zayavka_draft"}));
    assert_eq!(body["functions"][0]["name"], "zayavka_draft");
    assert_eq!(
        body["functions"][0]["parameters"],
        json!({"type": "object"})
    );
    assert_eq!(body.get("response_format"), None);
}

#[tokio::test]
async fn gigachat_blacklist_is_the_content_filter() {
    let stand_in = StandIn::start(Script::new().then(token_reply(TOKEN, HALF_AN_HOUR)).then(
        Reply::completion_with(
            Some("Не люблю менять тему разговора, но вот сейчас тот самый случай."),
            None,
            "blacklist",
        ),
    ));
    let completion = gigachat(&stand_in)
        .complete(&request(draft_format()), &CancellationToken::new())
        .await
        .result
        .unwrap();
    assert_eq!(completion.finish_reason.as_deref(), Some("content_filter"));
}

#[tokio::test]
async fn a_401_from_the_token_endpoint_is_an_auth_error_never_retried_and_never_echoed() {
    let stand_in = StandIn::start(Script::always(Reply::echo_credentials(
        401,
        format!(
            r#"{{"code":6,"message":"credentials doesn't match db data: {ECHO_KEY} ({ECHO_AUTHORIZATION})"}}"#
        ),
    )));
    let (report, events) = observed(&gigachat(&stand_in), &request(draft_format())).await;
    let error = report.result.as_ref().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Auth);
    assert!(error.to_string().contains("token exchange"), "{error}");
    assert_eq!(stand_in.request_count(), 1);
    assert_eq!(report.attempts.len(), 1);
    let attempt = &report.attempts[0];
    assert_eq!(attempt.http_status, Some(401));
    assert_eq!(attempt.retry_reason, None);
    assert_eq!(
        attempt.token_exchange.map(|exchange| exchange.http_status),
        Some(Some(401))
    );
    assert_no_secret(&everything_shown(&report, &events));
}

#[tokio::test]
async fn an_unavailable_token_endpoint_is_retried_under_the_budget() {
    let stand_in = StandIn::start(
        Script::new()
            .then(Reply::status(503, "busy"))
            .then(token_reply(TOKEN, HALF_AN_HOUR))
            .then(Reply::completion("{}")),
    );
    let report = gigachat(&stand_in)
        .complete(&request(draft_format()), &CancellationToken::new())
        .await;
    assert!(report.result.is_ok(), "{:?}", report.result);
    let first = &report.attempts[0];
    assert_eq!(first.error_kind, Some(ErrorKind::Unavailable));
    assert_eq!(first.http_status, Some(503));
    assert_eq!(
        first.retry_reason.map(|reason| reason.to_string()),
        Some("http_503".to_owned())
    );
    assert_eq!(report.attempts.len(), 2);
    assert_eq!(token_requests(&stand_in).len(), 2);
}

#[tokio::test]
async fn a_token_echoed_by_the_api_is_in_no_error_attempt_or_event() {
    let echo = format!(
        r#"{{"error":{{"message":"upstream saw {ECHO_KEY}; token {TOKEN}","type":"server_error"}}}}"#
    );
    let stand_in = StandIn::start(
        Script::new()
            .then(token_reply(TOKEN, HALF_AN_HOUR))
            .then(Reply::echo_credentials(500, echo.clone()))
            .then(Reply::echo_credentials(500, echo.clone()))
            .then(Reply::echo_credentials(500, echo)),
    );
    let (report, events) = observed(&gigachat(&stand_in), &request(draft_format())).await;
    assert_eq!(report.attempts.len(), 3);
    assert_eq!(
        report.result.as_ref().unwrap_err().kind(),
        ErrorKind::Unavailable
    );
    let shown = everything_shown(&report, &events);
    assert_no_secret(&shown);
    assert!(shown.contains("[redacted]"), "{shown}");
}

#[tokio::test]
async fn schema_modes_are_probed_per_protocol() {
    let stand_in = StandIn::start(
        Script::new()
            .then(token_reply(TOKEN, HALF_AN_HOUR))
            .then(Reply::format_refusal(
                422,
                "response_format json_schema is not supported for this model",
            ))
            .then(Reply::completion("{}")),
    );
    let report = gigachat(&stand_in)
        .probe_schema_modes(
            "GigaChat",
            "zayavka_probe",
            &json!({"type": "object"}),
            &CancellationToken::new(),
        )
        .await;
    let modes: Vec<ResponseFormatKind> = report.probes.iter().map(|probe| probe.mode).collect();
    assert_eq!(
        modes,
        [
            ResponseFormatKind::JsonSchema,
            ResponseFormatKind::FunctionCall
        ]
    );
    assert_eq!(report.recommended(), Some(ResponseFormatKind::FunctionCall));
    let refused = report.probes[0].support.error().unwrap();
    assert_eq!(
        refused.suggested_mode(),
        Some(ResponseFormatKind::FunctionCall)
    );
    assert!(api_requests(&stand_in)[1].json()["functions"].is_array());

    let yandex_stand_in = StandIn::start(Script::always(Reply::json(200, responses_body("{}"))));
    let report = yandex(&yandex_stand_in, Protocol::Responses)
        .probe_schema_modes(
            "m",
            "zayavka_probe",
            &json!({"type": "object"}),
            &CancellationToken::new(),
        )
        .await;
    assert_eq!(report.recommended(), Some(ResponseFormatKind::JsonSchema));
    assert_eq!(report.probes.len(), 2);
    assert!(
        yandex_stand_in
            .requests()
            .iter()
            .all(|request| request.path == "/v1/responses")
    );
}

#[tokio::test]
async fn the_gigachat_probe_exchanges_a_token_and_sends_it_to_the_model_list() {
    let stand_in = StandIn::start(
        Script::new()
            .then(token_reply(TOKEN, HALF_AN_HOUR))
            .then(Reply::json(200, json!({"data": []}))),
    );
    let status = gigachat(&stand_in)
        .probe(&CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(status, 200);
    let list = &api_requests(&stand_in)[0];
    assert_eq!(list.path, "/v1/models");
    assert_eq!(
        list.header("authorization"),
        Some(format!("Bearer {TOKEN}").as_str())
    );
}

#[test]
fn a_gigachat_endpoint_without_a_key_asks_for_one_and_extra_headers_are_checked() {
    let base = Url::parse("http://127.0.0.1:9/v1").unwrap();
    let mut endpoint = Endpoint::gigachat(
        base.clone(),
        ApiKey::new("k".to_owned()),
        base.clone(),
        "GIGACHAT_API_PERS",
    );
    endpoint.api_key = None;
    assert!(matches!(
        Client::new(endpoint, budget()),
        Err(LlmError::NoApiKey)
    ));
    let bad_header = Endpoint::new(base.clone(), None).with_header("x folder", "v");
    assert!(matches!(
        Client::new(bad_header, budget()),
        Err(LlmError::BadConfig { .. })
    ));
    let authorization = Endpoint::new(base, None).with_header("Authorization", "Bearer x");
    assert!(matches!(
        Client::new(authorization, budget()),
        Err(LlmError::BadConfig { .. })
    ));
}

fn tls_client(stand_in: &StandIn, roots: &[&[u8]]) -> Client {
    let mut endpoint = Endpoint::new(
        Url::parse(&stand_in.base_url()).unwrap(),
        Some(ApiKey::new(YANDEX_KEY.to_owned())),
    );
    for root in roots {
        endpoint = endpoint.with_root_certificate(*root);
    }
    Client::new(
        endpoint,
        Budget {
            max_attempts: 1,
            ..budget()
        },
    )
    .unwrap()
}

#[tokio::test]
async fn an_extra_root_is_trusted_by_the_client_that_carries_it_and_no_other() {
    let ca = zayavka_standin::TestCa::new("Zayavka Test Root CA");
    let stranger = zayavka_standin::TestCa::new("Some Other Root CA");
    let stand_in = StandIn::start_tls(Script::always(Reply::completion("{}")), &ca);
    assert!(stand_in.base_url().starts_with("https://127.0.0.1:"));

    for roots in [
        vec![ca.certificate_pem().as_bytes()],
        vec![ca.certificate_der()],
        vec![stranger.certificate_der(), ca.certificate_pem().as_bytes()],
    ] {
        let report = tls_client(&stand_in, &roots)
            .complete(&request(draft_format()), &CancellationToken::new())
            .await;
        assert!(report.result.is_ok(), "{:?}", report.result);
    }
    assert_eq!(stand_in.request_count(), 3);

    for roots in [vec![], vec![stranger.certificate_pem().as_bytes()]] {
        let report = tls_client(&stand_in, &roots)
            .complete(&request(draft_format()), &CancellationToken::new())
            .await;
        let error = report.result.unwrap_err();
        assert_eq!(error.kind(), ErrorKind::Unavailable, "{error}");
        assert!(error.to_string().contains("certificate"), "{error}");
    }
    // The refused handshakes never got as far as a request.
    assert_eq!(stand_in.request_count(), 3);
}

#[test]
fn an_unreadable_extra_root_is_a_configuration_error() {
    for bytes in [
        b"-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n".to_vec(),
        b"-----BEGIN NOTHING-----\n".to_vec(),
        vec![0x30, 0x03, 0x01],
    ] {
        let endpoint = Endpoint::new(Url::parse("https://127.0.0.1:9/v1").unwrap(), None)
            .with_root_certificate(bytes.clone());
        assert!(
            matches!(
                Client::new(endpoint, budget()),
                Err(LlmError::BadConfig { .. })
            ),
            "{bytes:?}"
        );
    }
}

#[tokio::test]
async fn a_context_too_small_is_recognised_with_its_numbers_and_not_retried() {
    let llama_cpp = json!({"error": {
        "code": 400,
        "message": "request (6834 tokens) exceeds the available context size (4096 tokens), try increasing it",
        "type": "exceed_context_size_error",
        "n_prompt_tokens": 6834,
        "n_ctx": 4096,
    }});
    let stand_in = StandIn::start(Script::always(Reply::json(400, llama_cpp)));
    let client = Client::new(
        Endpoint::new(Url::parse(&stand_in.base_url()).unwrap(), None),
        budget(),
    )
    .unwrap();
    let report = client
        .complete(&request(draft_format()), &CancellationToken::new())
        .await;
    let error = report.result.as_ref().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::ContextTooSmall);
    assert_eq!(error.context_size(), Some((Some(6834), Some(4096))));
    assert!(!error.is_retryable());
    assert!(
        error
            .to_string()
            .contains("6834 tokens needed, 4096 available"),
        "{error}"
    );
    assert_eq!(stand_in.request_count(), 1);
    assert_eq!(
        report.attempts[0].error_kind,
        Some(ErrorKind::ContextTooSmall)
    );

    let openai = StandIn::start(Script::always(Reply::json(
        400,
        json!({"error": {"message": "This model's maximum context length is 8192 tokens. However, you requested 9100 tokens.", "type": "invalid_request_error", "code": "context_length_exceeded"}}),
    )));
    let error = Client::new(
        Endpoint::new(Url::parse(&openai.base_url()).unwrap(), None),
        budget(),
    )
    .unwrap()
    .complete(&request(draft_format()), &CancellationToken::new())
    .await
    .result
    .unwrap_err();
    assert_eq!(error.context_size(), Some((Some(9100), Some(8192))));
}

// Against the stand-in playing the services, which checks what the services check.

use zayavka_standin::Service;

fn yandex_service() -> Service {
    Service::Yandex {
        api_key: YANDEX_KEY.to_owned(),
        folder_id: FOLDER.to_owned(),
    }
}

fn gigachat_service(token_lifetime: Duration) -> Service {
    Service::GigaChat {
        authorization_key: GIGACHAT_KEY.to_owned(),
        scope: "GIGACHAT_API_PERS".to_owned(),
        token_lifetime,
    }
}

fn gigachat_client(stand_in: &StandIn, key: &str) -> Client {
    let endpoint = Endpoint::gigachat(
        Url::parse(&stand_in.base_url()).unwrap(),
        ApiKey::new(key.to_owned()),
        Url::parse(&stand_in.auth_url()).unwrap(),
        "GIGACHAT_API_PERS",
    );
    Client::new(endpoint, budget()).unwrap()
}

async fn complete(client: &Client, request: &ChatRequest) -> CallReport {
    client.complete(request, &CancellationToken::new()).await
}

#[tokio::test]
async fn the_yandex_stand_in_serves_both_protocols_and_both_answer_shapes() {
    let stand_in = StandIn::start_as(
        yandex_service(),
        Script::new()
            .then(Reply::completion("{\"a\":1}"))
            .then(Reply::responses("{\"a\":2}"))
            .then(Reply::responses_simplified("{\"a\":3}"))
            .then(Reply::responses_incomplete("{\"a\""))
            .then(Reply::responses_refusal("Нет.")),
    );
    let chat = yandex(&stand_in, Protocol::ChatCompletions);
    let responses = yandex(&stand_in, Protocol::Responses);
    let contents = [
        complete(&chat, &request(draft_format())).await,
        complete(&responses, &request(draft_format())).await,
        complete(&responses, &request(ResponseFormat::JsonObject)).await,
    ]
    .map(|report| report.result.unwrap().content.unwrap());
    assert_eq!(contents, ["{\"a\":1}", "{\"a\":2}", "{\"a\":3}"]);
    let cut = complete(&responses, &request(draft_format()))
        .await
        .result
        .unwrap();
    assert_eq!(cut.finish_reason.as_deref(), Some("length"));
    let refused = complete(&responses, &request(draft_format()))
        .await
        .result
        .unwrap();
    assert_eq!(refused.refusal.as_deref(), Some("Нет."));
}

#[tokio::test]
async fn the_yandex_stand_in_refuses_a_wrong_key_folder_or_model_like_the_service() {
    let stand_in = StandIn::start_as(yandex_service(), Script::always(Reply::completion("{}")));
    let base = Url::parse(&stand_in.base_url()).unwrap();
    let wrong_key = Endpoint::yandex_ai_studio(
        base.clone(),
        ApiKey::new("AQVN-wrong".to_owned()),
        FOLDER,
        Protocol::Responses,
    );
    let wrong_folder = Endpoint::yandex_ai_studio(
        base.clone(),
        ApiKey::new(YANDEX_KEY.to_owned()),
        "b1gother",
        Protocol::ChatCompletions,
    );
    let bearer = Endpoint::new(base.clone(), Some(ApiKey::new(YANDEX_KEY.to_owned())))
        .with_header("x-folder-id", FOLDER);
    let no_folder = Endpoint::new(base, Some(ApiKey::new(YANDEX_KEY.to_owned())))
        .with_authentication(Authentication::ApiKey);
    let other_folder_model = ChatRequest {
        model: "gpt://b1gother/yandexgpt/latest".to_owned(),
        ..request(draft_format())
    };
    let short_model = ChatRequest {
        model: "yandexgpt/latest".to_owned(),
        ..request(draft_format())
    };
    let cases = [
        (wrong_key, request(draft_format()), 401, ErrorKind::Auth),
        (wrong_folder, request(draft_format()), 403, ErrorKind::Auth),
        (bearer, request(draft_format()), 401, ErrorKind::Auth),
        (
            no_folder,
            request(draft_format()),
            400,
            ErrorKind::BadRequest,
        ),
        (
            yandex_endpoint(&stand_in),
            other_folder_model,
            403,
            ErrorKind::Auth,
        ),
        (
            yandex_endpoint(&stand_in),
            short_model,
            400,
            ErrorKind::BadRequest,
        ),
    ];
    for (endpoint, request, status, kind) in cases {
        let report = complete(&Client::new(endpoint, budget()).unwrap(), &request).await;
        let error = report.result.as_ref().unwrap_err();
        assert_eq!(
            (error.status(), error.kind()),
            (Some(status), kind),
            "{error}"
        );
        assert_eq!(report.attempts.len(), 1, "not retried: {error}");
        assert_no_secret(&everything_shown(&report, &[]));
    }
    // The refusals came from the service checks, not from the script.
    let passed = complete(
        &yandex(&stand_in, Protocol::ChatCompletions),
        &request(draft_format()),
    )
    .await;
    assert!(passed.result.is_ok());
}

#[tokio::test]
async fn a_batch_of_twenty_against_the_gigachat_stand_in_makes_one_token_exchange() {
    let stand_in = StandIn::start_as(
        gigachat_service(HALF_AN_HOUR),
        Script::always(Reply::function_call(
            "zayavka_draft",
            json!({"outcome": "draft"}),
        )),
    );
    let client = gigachat_client(&stand_in, GIGACHAT_KEY);
    let function = ResponseFormat::FunctionCall {
        name: "zayavka_draft".to_owned(),
        description: "Черновик".to_owned(),
        parameters: json!({"type": "object"}),
    };
    let tasks: Vec<_> = (0..20)
        .map(|_| {
            let client = client.clone();
            let request = request(function.clone());
            tokio::spawn(async move { complete(&client, &request).await })
        })
        .collect();
    for task in tasks {
        let completion = task.await.unwrap().result.unwrap();
        assert_eq!(
            serde_json::from_str::<Value>(completion.content.as_deref().unwrap()).unwrap(),
            json!({"outcome": "draft"})
        );
    }
    assert_eq!(stand_in.token_exchanges(), 1);
    assert_eq!(stand_in.request_count(), 21);
}

#[tokio::test]
async fn an_expired_or_revoked_token_is_exchanged_again_against_the_gigachat_stand_in() {
    let stand_in = StandIn::start_as(
        gigachat_service(HALF_AN_HOUR),
        Script::new()
            .then(Reply::completion("{}"))
            .then(Reply::blacklist())
            .repeat_last(),
    );
    let client = gigachat_client(&stand_in, GIGACHAT_KEY);
    assert!(
        complete(&client, &request(draft_format()))
            .await
            .result
            .is_ok()
    );
    stand_in.expire_tokens();
    let report = complete(&client, &request(draft_format())).await;
    let completion = report.result.as_ref().unwrap();
    assert_eq!(completion.finish_reason.as_deref(), Some("content_filter"));
    assert_eq!(
        report.attempts[0].retry_reason,
        Some(RetryReason::TokenRejected)
    );
    assert_eq!(stand_in.token_exchanges(), 2);

    // A token that lives less than the refresh margin is exchanged for every call.
    let short = StandIn::start_as(
        gigachat_service(Duration::from_secs(30)),
        Script::always(Reply::completion("{}")),
    );
    let client = gigachat_client(&short, GIGACHAT_KEY);
    for _ in 0..3 {
        assert!(
            complete(&client, &request(draft_format()))
                .await
                .result
                .is_ok()
        );
    }
    assert_eq!(short.token_exchanges(), 3);
}

#[tokio::test]
async fn a_wrong_authorization_key_is_refused_by_the_gigachat_stand_in_and_not_retried() {
    let stand_in = StandIn::start_as(
        gigachat_service(HALF_AN_HOUR),
        Script::always(Reply::completion("{}")),
    );
    let (report, events) = observed(
        &gigachat_client(&stand_in, "d3JvbmctY2FuYXJ5LWtleQ=="),
        &request(draft_format()),
    )
    .await;
    let error = report.result.as_ref().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Auth);
    assert_eq!(stand_in.request_count(), 1);
    assert_eq!(stand_in.token_exchanges(), 0);
    let shown = everything_shown(&report, &events);
    assert!(!shown.contains("d3JvbmctY2FuYXJ5LWtleQ=="), "{shown}");
}

/// `zayavka doctor` checks the token exchange on its own (issue 15): one exchange, then the
/// token held is enough; a wrong key is an `auth` error naming no secret.
#[tokio::test]
async fn ensure_credentials_exchanges_once_and_reports_a_refused_key() {
    let stand_in = StandIn::start_as(
        gigachat_service(Duration::from_secs(1800)),
        Script::always(Reply::completion("{}")),
    );
    let cancel = CancellationToken::new();
    let client = gigachat_client(&stand_in, GIGACHAT_KEY);
    assert_eq!(client.ensure_credentials(&cancel).await, Ok(true));
    assert_eq!(client.clone().ensure_credentials(&cancel).await, Ok(false));
    assert_eq!(stand_in.token_exchanges(), 1);

    let wrong = gigachat_client(&stand_in, "d3Jvbmc6a2V5");
    let error = wrong.ensure_credentials(&cancel).await.unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Auth, "{error}");
    assert!(!error.to_string().contains("d3Jvbmc6a2V5"), "{error}");
    assert_eq!(stand_in.token_exchanges(), 1);

    // Other services have nothing to exchange.
    let plain = Client::new(
        Endpoint::new(Url::parse(&stand_in.base_url()).unwrap(), None),
        budget(),
    )
    .unwrap();
    assert_eq!(plain.ensure_credentials(&cancel).await, Ok(false));
}
