//! Reading a chat-completions answer, and the error objects providers send instead.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::LlmError;

/// The neutral result of a successful call: the first choice's message and the metadata a
/// context record keeps.
///
/// Whether the content is usable (schema, refusal, truncation) is for the caller to decide;
/// this crate only guarantees that the body was a chat-completions object.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Completion {
    /// The answer's text, whatever the protocol: `choices[0].message.content` (text parts
    /// joined when a provider sends a list), the arguments of a forced
    /// `message.function_call` serialised as JSON, or the Responses API's `output_text`
    /// parts joined.
    pub content: Option<String>,
    /// The model's refusal: `choices[0].message.refusal`, or a Responses `refusal` part.
    pub refusal: Option<String>,
    /// Why the answer ended, in the chat-completions vocabulary whatever the protocol:
    /// `stop`, `length` (also a Responses answer `incomplete` for `max_output_tokens`),
    /// `content_filter` (also GigaChat's `blacklist` and a Responses answer `incomplete` for
    /// `content_filter`), or the provider's own word, such as `function_call`. The raw body
    /// keeps what the provider said.
    pub finish_reason: Option<String>,
    /// The token counts the provider reported.
    pub usage: Option<Usage>,
    /// The model that actually answered, which may differ from the one requested.
    pub model: Option<String>,
    /// The body as received, for the audit trail and offline replay: byte for byte, unless
    /// it carried the API key or an `Authorization` value, which are replaced by
    /// `[redacted]` (see [`crate::redact_body`]).
    pub raw_body: String,
}

impl Completion {
    /// The same completion with every text the provider wrote passed through
    /// [`crate::redact`], and the raw body through [`crate::redact_body`], so that a provider
    /// echoing the key in a success answer cannot carry it into a record or onto a screen.
    pub(crate) fn redacted(self, secrets: &[&str]) -> Completion {
        let text = |value: Option<String>| value.map(|value| crate::redact(&value, secrets));
        Completion {
            content: text(self.content),
            refusal: text(self.refusal),
            finish_reason: text(self.finish_reason),
            usage: self.usage,
            model: text(self.model),
            raw_body: crate::redact_body(&self.raw_body, secrets),
        }
    }
}

/// Token counts for one answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Usage {
    /// Tokens in the prompt.
    pub prompt_tokens: u64,
    /// Tokens generated.
    pub completion_tokens: u64,
    /// Their sum as the provider reports it (computed when a provider omits it).
    pub total_tokens: u64,
}

/// Reads a chat-completions body.
///
/// Unknown fields are ignored, since providers add their own. The body is an
/// [`LlmError::InvalidResponse`] when it is not JSON, carries an `error` object instead of
/// choices, or has no `choices[0].message`.
pub fn parse_chat_completion(body: &str) -> Result<Completion, LlmError> {
    let invalid = |message: String| LlmError::InvalidResponse {
        status: None,
        message,
    };
    let value: Value = serde_json::from_str(body).map_err(|error| {
        invalid(format!(
            "the body is not JSON ({error}); it starts with {:?}",
            excerpt(body, 80)
        ))
    })?;
    let Some(envelope) = value.as_object() else {
        return Err(invalid("the body is JSON but not an object".to_owned()));
    };
    let choice = match envelope.get("choices") {
        Some(Value::Array(choices)) => choices
            .first()
            .ok_or_else(|| invalid("the completion has an empty `choices` list".to_owned()))?,
        Some(_) => return Err(invalid("`choices` is not a list".to_owned())),
        // Some gateways answer 200 with an error object; its text says more than "no choices".
        None => {
            return Err(invalid(match ProviderError::from_value(&value) {
                Some(error) => format!(
                    "the body is an error object instead of a completion: {}",
                    error.describe()
                ),
                None => "the body has no `choices`".to_owned(),
            }));
        }
    };
    let Some(message) = choice.get("message").and_then(Value::as_object) else {
        return Err(invalid("`choices[0]` has no `message` object".to_owned()));
    };

    let function_arguments = message
        .get("function_call")
        .and_then(|call| call.get("arguments"))
        .and_then(|arguments| match arguments {
            Value::String(text) => Some(text.clone()),
            Value::Null => None,
            other => Some(other.to_string()),
        });
    let content = message
        .get("content")
        .and_then(content_text)
        .filter(|text| !text.is_empty() || function_arguments.is_none())
        .or(function_arguments);

    Ok(Completion {
        content,
        refusal: message
            .get("refusal")
            .and_then(Value::as_str)
            .map(str::to_owned),
        finish_reason: choice
            .get("finish_reason")
            .and_then(Value::as_str)
            // GigaChat's content filter says `blacklist`; callers know one word for it.
            .map(|reason| match reason {
                "blacklist" => "content_filter".to_owned(),
                other => other.to_owned(),
            }),
        usage: envelope.get("usage").and_then(usage),
        model: envelope
            .get("model")
            .and_then(Value::as_str)
            .map(str::to_owned),
        raw_body: body.to_owned(),
    })
}

/// Reads a body in whichever shape it came: a chat completion (OpenAI's or GigaChat's) when it
/// has `choices`, a Responses answer when it has `output` or `output_text` or says
/// `"object": "response"`. Replaying a stored body needs no knowledge of the protocol.
pub fn parse_completion(body: &str) -> Result<Completion, LlmError> {
    let is_response = serde_json::from_str::<Value>(body)
        .ok()
        .is_some_and(|value| {
            value.get("choices").is_none()
                && (value.get("output").is_some()
                    || value.get("output_text").is_some()
                    || value.get("object").and_then(Value::as_str) == Some("response"))
        });
    if is_response {
        parse_response(body)
    } else {
        parse_chat_completion(body)
    }
}

/// Reads a Responses API body, in either shape the services return: the standard one
/// (`status`, `output[]` items of type `message` whose `content[]` holds `output_text` or
/// `refusal` parts, `incomplete_details` when the answer was cut short) or the simplified one
/// with a top-level `output_text`. Usage comes as `input_tokens` / `output_tokens`.
///
/// `status: incomplete` becomes the finish reason `length` when the reason is
/// `max_output_tokens` and `content_filter` when it is `content_filter`, so that callers
/// treat it exactly as the chat answer that ends so; `completed` becomes `stop`. A
/// `failed` answer, an `error` object or a body with neither output nor text is an
/// [`LlmError::InvalidResponse`].
pub fn parse_response(body: &str) -> Result<Completion, LlmError> {
    let invalid = |message: String| LlmError::InvalidResponse {
        status: None,
        message,
    };
    let value: Value = serde_json::from_str(body).map_err(|error| {
        invalid(format!(
            "the body is not JSON ({error}); it starts with {:?}",
            excerpt(body, 80)
        ))
    })?;
    let Some(envelope) = value.as_object() else {
        return Err(invalid("the body is JSON but not an object".to_owned()));
    };
    if let Some(error) = ProviderError::from_value(&value) {
        return Err(invalid(format!(
            "the body is an error object instead of a response: {}",
            error.describe()
        )));
    }
    let status = envelope.get("status").and_then(Value::as_str);
    if status == Some("failed") {
        return Err(invalid("the response has the status `failed`".to_owned()));
    }

    let mut texts = Vec::new();
    let mut refusals = Vec::new();
    match envelope.get("output") {
        Some(Value::Array(items)) => {
            for item in items {
                if item.get("type").and_then(Value::as_str) != Some("message") {
                    continue;
                }
                let Some(Value::Array(parts)) = item.get("content") else {
                    continue;
                };
                for part in parts {
                    match part.get("type").and_then(Value::as_str) {
                        Some("output_text") => {
                            if let Some(text) = part.get("text").and_then(Value::as_str) {
                                texts.push(text.to_owned());
                            }
                        }
                        Some("refusal") => {
                            if let Some(text) = part.get("refusal").and_then(Value::as_str) {
                                refusals.push(text.to_owned());
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        Some(Value::Null) | None => {}
        Some(_) => return Err(invalid("`output` is not a list".to_owned())),
    }
    // The simplified shape carries the text at the top; the standard one may repeat it there
    // as a convenience, so it is used only when the items held none.
    if texts.is_empty()
        && let Some(text) = envelope.get("output_text")
    {
        match text {
            Value::String(text) => texts.push(text.clone()),
            Value::Array(parts) => {
                texts.extend(parts.iter().filter_map(Value::as_str).map(str::to_owned))
            }
            _ => {}
        }
    }
    if texts.is_empty() && refusals.is_empty() && status != Some("incomplete") {
        return Err(invalid(
            "the response has neither `output` messages nor `output_text`".to_owned(),
        ));
    }

    let incomplete_reason = envelope
        .get("incomplete_details")
        .and_then(|details| details.get("reason"))
        .and_then(Value::as_str);
    let finish_reason = match (status, incomplete_reason) {
        (Some("incomplete"), Some("max_output_tokens")) => Some("length".to_owned()),
        (Some("incomplete"), Some("content_filter")) => Some("content_filter".to_owned()),
        (Some("incomplete"), Some(other)) => Some(other.to_owned()),
        (Some("incomplete"), None) => Some("incomplete".to_owned()),
        (Some("completed"), _) | (None, _) => Some("stop".to_owned()),
        (Some(other), _) => Some(other.to_owned()),
    };

    Ok(Completion {
        content: (!texts.is_empty()).then(|| texts.concat()),
        refusal: (!refusals.is_empty()).then(|| refusals.join("\n")),
        finish_reason,
        usage: envelope.get("usage").and_then(usage),
        model: envelope
            .get("model")
            .and_then(Value::as_str)
            .map(str::to_owned),
        raw_body: body.to_owned(),
    })
}

/// Content is a string in the classic API, but some servers send a list of typed parts.
fn content_text(content: &Value) -> Option<String> {
    match content {
        Value::String(text) => Some(text.clone()),
        Value::Array(parts) => {
            let texts: Vec<&str> = parts
                .iter()
                .filter_map(|part| part.get("text").and_then(Value::as_str))
                .collect();
            (!texts.is_empty()).then(|| texts.concat())
        }
        _ => None,
    }
}

fn usage(value: &Value) -> Option<Usage> {
    let count = |name: &str| value.get(name).and_then(Value::as_u64);
    // Chat completions count `prompt_tokens` / `completion_tokens`, the Responses API
    // `input_tokens` / `output_tokens`.
    let prompt_tokens = count("prompt_tokens").or_else(|| count("input_tokens"));
    let completion_tokens = count("completion_tokens").or_else(|| count("output_tokens"));
    if prompt_tokens.is_none() && completion_tokens.is_none() {
        return None;
    }
    let prompt_tokens = prompt_tokens.unwrap_or(0);
    let completion_tokens = completion_tokens.unwrap_or(0);
    Some(Usage {
        prompt_tokens,
        completion_tokens,
        total_tokens: count("total_tokens")
            .unwrap_or_else(|| prompt_tokens.saturating_add(completion_tokens)),
    })
}

/// The error object providers send with failures, in the shapes seen in the wild:
/// OpenAI's `{"error":{"message","type","code"}}`, OpenRouter's numeric `code`, and the
/// plain `{"error":"..."}` of Ollama and llama.cpp.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ProviderError {
    pub(crate) message: Option<String>,
    pub(crate) error_type: Option<String>,
    pub(crate) code: Option<String>,
}

impl ProviderError {
    pub(crate) fn from_body(body: &str) -> Option<ProviderError> {
        serde_json::from_str::<Value>(body)
            .ok()
            .and_then(|value| ProviderError::from_value(&value))
    }

    fn from_value(value: &Value) -> Option<ProviderError> {
        match value.get("error")? {
            Value::String(message) => Some(ProviderError {
                message: Some(message.clone()),
                ..ProviderError::default()
            }),
            Value::Object(error) => {
                let text = |name: &str| match error.get(name) {
                    Some(Value::String(text)) => Some(text.clone()),
                    Some(Value::Number(number)) => Some(number.to_string()),
                    _ => None,
                };
                Some(ProviderError {
                    message: text("message"),
                    error_type: text("type"),
                    code: text("code"),
                })
            }
            _ => None,
        }
    }

    /// Whether the account is out of money or quota rather than merely sending too fast.
    pub(crate) fn is_insufficient_quota(&self) -> bool {
        [&self.error_type, &self.code]
            .into_iter()
            .flatten()
            .any(|value| value == "insufficient_quota")
    }

    /// A one-line summary such as `insufficient_quota: You exceeded your current quota`.
    pub(crate) fn describe(&self) -> String {
        let label = self.code.as_ref().or(self.error_type.as_ref());
        match (label, &self.message) {
            (Some(label), Some(message)) => format!("{label}: {}", excerpt(message, 300)),
            (None, Some(message)) => excerpt(message, 300),
            (Some(label), None) => label.clone(),
            (None, None) => "no details".to_owned(),
        }
    }
}

/// Words with which servers say that a request does not fit the model's context, compared in
/// lower case: llama.cpp («request (6834 tokens) exceeds the available context size (4096
/// tokens), try increasing it», type `exceed_context_size_error`), OpenAI and vLLM («This
/// model's maximum context length is 8192 tokens. However, you requested 9000 tokens», code
/// `context_length_exceeded`), Ollama («the input length exceeds the context length»), and
/// the older llama.cpp server («the request exceeds the available context size»).
const CONTEXT_WORDS: [&str; 6] = [
    "context_length_exceeded",
    "exceed_context_size_error",
    "exceeds the available context size",
    "maximum context length",
    "exceeds the context length",
    "exceeds the context window",
];

/// The numbers in a context-size error, `(requested, context)`, when the body says that the
/// request does not fit the model's context; `None` when it says something else.
pub(crate) fn context_too_small(body: &str) -> Option<(Option<u64>, Option<u64>)> {
    let lower = body.to_lowercase();
    if !CONTEXT_WORDS.iter().any(|word| lower.contains(word)) {
        return None;
    }
    // llama.cpp also sends the numbers as fields of its error object.
    let fields = serde_json::from_str::<Value>(body).ok().and_then(|value| {
        let error = value.get("error")?.clone();
        let field = |name: &str| error.get(name).and_then(Value::as_u64);
        Some((field("n_prompt_tokens"), field("n_ctx")))
    });
    let requested = fields
        .and_then(|(requested, _)| requested)
        .or_else(|| number_after(&lower, "request ("))
        .or_else(|| number_after(&lower, "you requested "))
        .or_else(|| number_after(&lower, "resulted in "));
    let context = fields
        .and_then(|(_, context)| context)
        .or_else(|| number_after(&lower, "context size ("))
        .or_else(|| number_after(&lower, "maximum context length is "));
    Some((requested, context))
}

/// The whole number that directly follows `marker` in `text`.
fn number_after(text: &str, marker: &str) -> Option<u64> {
    let start = text.find(marker)? + marker.len();
    let digits: String = text[start..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// The start of `text` on one line, at most `max_chars` characters, for error messages that
/// must stay short however large the body was.
pub(crate) fn excerpt(text: &str, max_chars: usize) -> String {
    let single_line: String = text
        .trim()
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(max_chars + 1)
        .collect();
    if single_line.chars().count() > max_chars {
        let mut shortened: String = single_line.chars().take(max_chars).collect();
        shortened.push('…');
        shortened
    } else {
        single_line
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn reads_content_finish_reason_usage_and_model() {
        let body = json!({
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "model": "gpt-4o-mini-2024-07-18",
            "system_fingerprint": "fp_x",
            "choices": [{
                "index": 0,
                "message": {"role": "assistant", "content": "{\"outcome\":\"draft\"}", "refusal": null, "annotations": []},
                "finish_reason": "stop",
            }],
            "usage": {"prompt_tokens": 12, "completion_tokens": 5, "total_tokens": 17, "prompt_tokens_details": {}},
        })
        .to_string();
        let completion = parse_chat_completion(&body).unwrap();
        assert_eq!(
            completion.content.as_deref(),
            Some("{\"outcome\":\"draft\"}")
        );
        assert_eq!(completion.refusal, None);
        assert_eq!(completion.finish_reason.as_deref(), Some("stop"));
        assert_eq!(completion.model.as_deref(), Some("gpt-4o-mini-2024-07-18"));
        assert_eq!(
            completion.usage,
            Some(Usage {
                prompt_tokens: 12,
                completion_tokens: 5,
                total_tokens: 17
            })
        );
        assert_eq!(completion.raw_body, body);
    }

    #[test]
    fn reads_a_refusal_and_a_truncation() {
        let body = json!({
            "choices": [{"message": {"content": null, "refusal": "I can't help with that."}, "finish_reason": "length"}],
        })
        .to_string();
        let completion = parse_chat_completion(&body).unwrap();
        assert_eq!(completion.content, None);
        assert_eq!(
            completion.refusal.as_deref(),
            Some("I can't help with that.")
        );
        assert_eq!(completion.finish_reason.as_deref(), Some("length"));
        assert_eq!(completion.usage, None);
    }

    #[test]
    fn joins_text_parts_and_computes_a_missing_total() {
        let body = json!({
            "choices": [{"message": {"content": [{"type": "text", "text": "ab"}, {"type": "text", "text": "c"}]}}],
            "usage": {"prompt_tokens": 3, "completion_tokens": 4},
        })
        .to_string();
        let completion = parse_chat_completion(&body).unwrap();
        assert_eq!(completion.content.as_deref(), Some("abc"));
        assert_eq!(completion.finish_reason, None);
        assert_eq!(completion.usage.unwrap().total_tokens, 7);
    }

    #[test]
    fn rejects_bodies_that_are_not_completions() {
        for body in [
            "<html><body>502 Bad Gateway</body></html>",
            "{\"choices\": [",
            "[]",
            "{}",
            "{\"choices\": []}",
            "{\"choices\": [{\"text\": \"legacy\"}]}",
            "{\"error\": {\"message\": \"model overloaded\", \"type\": \"server_error\"}}",
        ] {
            let error = parse_chat_completion(body).unwrap_err();
            assert!(
                matches!(error, LlmError::InvalidResponse { status: None, .. }),
                "{body}: {error:?}"
            );
        }
        let error = parse_chat_completion(r#"{"error": "model not found"}"#).unwrap_err();
        assert!(error.to_string().contains("model not found"), "{error}");
    }

    #[test]
    fn recognises_insufficient_quota_by_type_or_code() {
        let openai = ProviderError::from_body(
            r#"{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}"#,
        )
        .unwrap();
        assert!(openai.is_insufficient_quota());
        assert_eq!(
            openai.describe(),
            "insufficient_quota: You exceeded your current quota"
        );
        let rate = ProviderError::from_body(
            r#"{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}"#,
        )
        .unwrap();
        assert!(!rate.is_insufficient_quota());
        let numeric =
            ProviderError::from_body(r#"{"error":{"code":402,"message":"no credits"}}"#).unwrap();
        assert_eq!(numeric.describe(), "402: no credits");
        assert_eq!(ProviderError::from_body("<html>"), None);
    }

    #[test]
    fn excerpts_are_short_single_lines() {
        assert_eq!(excerpt("  a\nb  ", 10), "a b");
        assert_eq!(excerpt("абвгд", 3), "абв…");
    }

    #[test]
    fn reads_the_standard_responses_shape() {
        let body = json!({
            "id": "resp_1",
            "object": "response",
            "status": "completed",
            "model": "gpt://b1g/aliceai-llm-flash/latest",
            "output": [
                {"type": "reasoning", "summary": []},
                {"type": "message", "role": "assistant", "content": [
                    {"type": "output_text", "text": "{\"outcome\":", "annotations": []},
                    {"type": "output_text", "text": "\"draft\"}", "annotations": []},
                ]},
            ],
            "usage": {"input_tokens": 30, "output_tokens": 7, "total_tokens": 37},
        })
        .to_string();
        for parse in [parse_response, parse_completion] {
            let completion = parse(&body).unwrap();
            assert_eq!(
                completion.content.as_deref(),
                Some("{\"outcome\":\"draft\"}")
            );
            assert_eq!(completion.refusal, None);
            assert_eq!(completion.finish_reason.as_deref(), Some("stop"));
            assert_eq!(
                completion.usage,
                Some(Usage {
                    prompt_tokens: 30,
                    completion_tokens: 7,
                    total_tokens: 37
                })
            );
            assert_eq!(
                completion.model.as_deref(),
                Some("gpt://b1g/aliceai-llm-flash/latest")
            );
        }
    }

    #[test]
    fn reads_the_simplified_responses_shape() {
        let body =
            json!({"output_text": "{\"a\":1}", "usage": {"input_tokens": 3, "output_tokens": 2}})
                .to_string();
        let completion = parse_completion(&body).unwrap();
        assert_eq!(completion.content.as_deref(), Some("{\"a\":1}"));
        assert_eq!(completion.finish_reason.as_deref(), Some("stop"));
        assert_eq!(completion.usage.unwrap().total_tokens, 5);
    }

    #[test]
    fn an_incomplete_response_is_a_truncation_and_a_refusal_part_a_refusal() {
        let cut = json!({
            "object": "response",
            "status": "incomplete",
            "incomplete_details": {"reason": "max_output_tokens"},
            "output": [{"type": "message", "content": [{"type": "output_text", "text": "{\"outc"}]}],
        })
        .to_string();
        let completion = parse_response(&cut).unwrap();
        assert_eq!(completion.finish_reason.as_deref(), Some("length"));
        assert_eq!(completion.content.as_deref(), Some("{\"outc"));
        let filtered = json!({"status": "incomplete", "incomplete_details": {"reason": "content_filter"}, "output": []})
            .to_string();
        assert_eq!(
            parse_response(&filtered).unwrap().finish_reason.as_deref(),
            Some("content_filter")
        );
        let refused = json!({
            "status": "completed",
            "output": [{"type": "message", "content": [{"type": "refusal", "refusal": "Не могу помочь."}]}],
        })
        .to_string();
        let completion = parse_response(&refused).unwrap();
        assert_eq!(completion.refusal.as_deref(), Some("Не могу помочь."));
        assert_eq!(completion.content, None);
    }

    #[test]
    fn rejects_responses_bodies_without_an_answer() {
        for body in [
            r#"{"status":"failed","error":{"message":"boom","code":"server_error"},"output":[]}"#,
            r#"{"status":"completed","output":[]}"#,
            r#"{"output":{}}"#,
            "<html>",
        ] {
            assert!(
                matches!(parse_response(body), Err(LlmError::InvalidResponse { .. })),
                "{body}"
            );
        }
    }

    #[test]
    fn reads_gigachat_function_arguments_and_its_content_filter() {
        let body = json!({
            "choices": [{
                "message": {"role": "assistant", "content": "", "function_call": {"name": "zayavka_draft", "arguments": {"outcome": "draft"}}},
                "finish_reason": "function_call",
            }],
            "usage": {"prompt_tokens": 10, "completion_tokens": 3, "total_tokens": 13},
        })
        .to_string();
        let completion = parse_chat_completion(&body).unwrap();
        assert_eq!(
            serde_json::from_str::<Value>(completion.content.as_deref().unwrap()).unwrap(),
            json!({"outcome": "draft"})
        );
        assert_eq!(completion.finish_reason.as_deref(), Some("function_call"));
        let blacklisted = json!({
            "choices": [{"message": {"role": "assistant", "content": "Не люблю менять тему разговора…"}, "finish_reason": "blacklist"}],
        })
        .to_string();
        assert_eq!(
            parse_completion(&blacklisted)
                .unwrap()
                .finish_reason
                .as_deref(),
            Some("content_filter")
        );
    }

    #[test]
    fn recognises_context_errors_with_their_numbers() {
        let llama_cpp = r#"{"error":{"code":400,"message":"request (6834 tokens) exceeds the available context size (4096 tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":6834,"n_ctx":4096}}"#;
        assert_eq!(context_too_small(llama_cpp), Some((Some(6834), Some(4096))));
        let llama_cpp_text = "request (6834 tokens) exceeds the available context size (4096 tokens), try increasing it";
        assert_eq!(
            context_too_small(llama_cpp_text),
            Some((Some(6834), Some(4096)))
        );
        let openai = r#"{"error":{"message":"This model's maximum context length is 8192 tokens. However, you requested 9100 tokens (8100 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}"#;
        assert_eq!(context_too_small(openai), Some((Some(9100), Some(8192))));
        let openai_code_only =
            r#"{"error":{"message":"Input too long.","code":"context_length_exceeded"}}"#;
        assert_eq!(context_too_small(openai_code_only), Some((None, None)));
        let ollama = r#"{"error":"the input length exceeds the context length"}"#;
        assert_eq!(context_too_small(ollama), Some((None, None)));
        for other in [
            r#"{"error":{"message":"Invalid value for 'temperature'","code":null}}"#,
            "model not found",
            r#"{"error":"context canceled"}"#,
        ] {
            assert_eq!(context_too_small(other), None, "{other}");
        }
    }
}
