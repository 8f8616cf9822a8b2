//! What the stand-in sends back for one request, including the ways it can misbehave.

use std::time::Duration;

/// Token counts that every canned completion reports, so that tests can assert on usage.
pub const CANNED_USAGE: (u64, u64) = (100, 50);

/// In an [`Reply::EchoCredentials`] template, replaced by the request's whole
/// `Authorization` header value, such as `Bearer sk-…`.
pub const ECHO_AUTHORIZATION: &str = "{{authorization}}";

/// In an [`Reply::EchoCredentials`] template, replaced by the token after `Bearer `,
/// `Api-Key ` or `Basic ` in the request's `Authorization` header: the key itself.
pub const ECHO_KEY: &str = "{{key}}";

/// One scripted answer to one request.
///
/// Every reply closes the connection afterwards (`Connection: close`), so each request the
/// client makes arrives on a fresh connection and can be scripted independently.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// A well-formed HTTP response.
    ///
    /// The server adds `Content-Length` unless `headers` already carry `content-length` or
    /// `transfer-encoding`; with `transfer-encoding: chunked` the body is sent chunked, which
    /// lets tests exercise a client that cannot know the body size in advance.
    Http {
        /// The status code.
        status: u16,
        /// Header names and values, sent as given.
        headers: Vec<(String, String)>,
        /// The body bytes.
        body: Vec<u8>,
    },
    /// Waits before sending the inner reply; the client sees no bytes until then.
    Delayed(Duration, Box<Reply>),
    /// Sends the status line and headers at once, then the body in small pieces with a pause
    /// before each, as a slow or stalling provider would.
    Drip {
        /// The status code.
        status: u16,
        /// The whole body; `Content-Length` declares its full length.
        body: Vec<u8>,
        /// How many bytes go out in each piece (at least one).
        chunk: usize,
        /// The pause before each piece.
        interval: Duration,
    },
    /// Declares a `Content-Length` of `declared_len`, sends only `sent`, then resets the
    /// connection, as a provider that crashes mid-answer would.
    ResetAfter {
        /// The status code.
        status: u16,
        /// The length the headers promise.
        declared_len: usize,
        /// The bytes actually sent before the reset.
        sent: Vec<u8>,
    },
    /// Reads the request and then sends nothing at all, holding the connection open until the
    /// client gives up.
    NeverAnswer,
    /// Reads the request and closes the connection without a response.
    CloseImmediately,
    /// Answers like [`Reply::Http`], but first replaces [`ECHO_AUTHORIZATION`] and
    /// [`ECHO_KEY`] in the body and in every header value with what the request carried, as
    /// a hostile or careless provider echoing the caller's credentials would. Without an
    /// `Authorization` header both are replaced by nothing. The values are inserted as they
    /// are, without JSON escaping, so a test's key should need none.
    EchoCredentials {
        /// The status code.
        status: u16,
        /// Header names and value templates.
        headers: Vec<(String, String)>,
        /// The body template.
        body: String,
    },
}

impl Reply {
    /// A `200` chat-completions answer carrying `content`, with `finish_reason` `"stop"` and
    /// the [`CANNED_USAGE`] token counts.
    pub fn completion(content: &str) -> Reply {
        Reply::completion_with(Some(content), None, "stop")
    }

    /// A `200` chat-completions answer with any combination of content, refusal and finish
    /// reason, for tests of refusals and truncation.
    pub fn completion_with(
        content: Option<&str>,
        refusal: Option<&str>,
        finish_reason: &str,
    ) -> Reply {
        Reply::Http {
            status: 200,
            headers: vec![json_content_type()],
            body: chat_completion_body(content, refusal, finish_reason).into_bytes(),
        }
    }

    /// A `200` Responses API answer in the standard shape: `status` `completed` and one
    /// `message` item whose content is one `output_text` part, with `input_tokens` /
    /// `output_tokens` usage from [`CANNED_USAGE`].
    pub fn responses(output_text: &str) -> Reply {
        Reply::responses_with(
            "completed",
            None,
            serde_json::json!([{"type": "output_text", "text": output_text, "annotations": []}]),
        )
    }

    /// A `200` Responses API answer in the simplified shape: only a top-level `output_text`
    /// and usage.
    pub fn responses_simplified(output_text: &str) -> Reply {
        let (input_tokens, output_tokens) = CANNED_USAGE;
        Reply::json(
            200,
            serde_json::json!({
                "output_text": output_text,
                "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens},
            }),
        )
    }

    /// A `200` Responses API answer cut at `max_output_tokens`: `status` `incomplete` with
    /// `incomplete_details.reason` `max_output_tokens`, carrying the text produced so far.
    pub fn responses_incomplete(partial_text: &str) -> Reply {
        Reply::responses_with(
            "incomplete",
            Some("max_output_tokens"),
            serde_json::json!([{"type": "output_text", "text": partial_text, "annotations": []}]),
        )
    }

    /// A `200` Responses API answer whose message is a `refusal` part.
    pub fn responses_refusal(refusal: &str) -> Reply {
        Reply::responses_with(
            "completed",
            None,
            serde_json::json!([{"type": "refusal", "refusal": refusal}]),
        )
    }

    fn responses_with(status: &str, incomplete: Option<&str>, content: serde_json::Value) -> Reply {
        let (input_tokens, output_tokens) = CANNED_USAGE;
        Reply::json(
            200,
            serde_json::json!({
                "id": "resp_standin",
                "object": "response",
                "status": status,
                "incomplete_details": incomplete.map(|reason| serde_json::json!({"reason": reason})),
                "model": "standin-model",
                "output": [{
                    "type": "message",
                    "id": "msg_standin",
                    "role": "assistant",
                    "status": status,
                    "content": content,
                }],
                "usage": {
                    "input_tokens": input_tokens,
                    "output_tokens": output_tokens,
                    "total_tokens": input_tokens + output_tokens,
                },
            }),
        )
    }

    /// A `200` GigaChat answer to forced function calling: `message.function_call` with
    /// `arguments` as a JSON object, and `finish_reason` `function_call`.
    pub fn function_call(name: &str, arguments: serde_json::Value) -> Reply {
        let (prompt_tokens, completion_tokens) = CANNED_USAGE;
        Reply::json(
            200,
            serde_json::json!({
                "choices": [{
                    "index": 0,
                    "message": {
                        "role": "assistant",
                        "content": "",
                        "function_call": {"name": name, "arguments": arguments},
                    },
                    "finish_reason": "function_call",
                }],
                "created": 1_700_000_000u64,
                "model": "GigaChat:standin",
                "object": "chat.completion",
                "usage": {
                    "prompt_tokens": prompt_tokens,
                    "completion_tokens": completion_tokens,
                    "total_tokens": prompt_tokens + completion_tokens,
                },
            }),
        )
    }

    /// A `200` GigaChat answer stopped by its content filter: a canned deflection with
    /// `finish_reason` `blacklist`.
    pub fn blacklist() -> Reply {
        Reply::completion_with(
            Some("Не люблю менять тему разговора, но вот сейчас тот самый случай."),
            None,
            "blacklist",
        )
    }

    /// Any status with a JSON body, such as an OpenAI error object.
    pub fn json(status: u16, value: serde_json::Value) -> Reply {
        Reply::Http {
            status,
            headers: vec![json_content_type()],
            body: value.to_string().into_bytes(),
        }
    }

    /// An error in Yandex AI Studio's envelope, `{"error": {"grpc_code", "http_code",
    /// "message"}}`, with the gRPC code its «Error codes» page pairs with `status` (`400`
    /// INVALID_ARGUMENT 3, `401` UNAUTHENTICATED 16, `403` PERMISSION_DENIED 7, `429`
    /// RESOURCE_EXHAUSTED 8, `500` INTERNAL 13, `503` UNAVAILABLE 14).
    pub fn yandex_error(status: u16, message: &str) -> Reply {
        let grpc_code = match status {
            401 => 16,
            403 => 7,
            429 => 8,
            500 => 13,
            503 => 14,
            _ => 3,
        };
        Reply::json(
            status,
            serde_json::json!({
                "error": {"grpc_code": grpc_code, "http_code": status, "message": message}
            }),
        )
    }

    /// An error in GigaChat's envelope, `{"status", "message"}`, such as its `402` «Payment
    /// Required» when the project's tokens are spent (its «Описание ошибок» page).
    pub fn gigachat_error(status: u16, message: &str) -> Reply {
        Reply::json(
            status,
            serde_json::json!({"status": status, "message": message}),
        )
    }

    /// Any status with a plain-text body; change the content type with [`Reply::with_header`].
    pub fn status(status: u16, body: impl Into<Vec<u8>>) -> Reply {
        Reply::Http {
            status,
            headers: vec![(
                "content-type".to_owned(),
                "text/plain; charset=utf-8".to_owned(),
            )],
            body: body.into(),
        }
    }

    /// The `500` that the `llama-cpp-python` server sends for a `response_format` it does not
    /// take (its version 0.3 answers `json_schema` so): its validation error turned into an
    /// internal error, in its error envelope.
    pub fn llama_cpp_python_format_refusal() -> Reply {
        Reply::json(
            500,
            serde_json::json!({
                "error": {
                    "message": "[{'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), \
                                'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema'}]",
                    "type": "internal_server_error",
                    "param": null,
                    "code": null,
                }
            }),
        )
    }

    /// An OpenAI-shaped `invalid_request_error` about `response_format` with any status and
    /// message, such as `400` «Invalid parameter: 'response_format' of type 'json_schema' is
    /// not supported with this model.»
    pub fn format_refusal(status: u16, message: &str) -> Reply {
        Reply::json(
            status,
            serde_json::json!({
                "error": {
                    "message": message,
                    "type": "invalid_request_error",
                    "param": "response_format",
                    "code": null,
                }
            }),
        )
    }

    /// A reply that echoes the request's credentials (see [`Reply::EchoCredentials`]) in a
    /// JSON or text body template.
    pub fn echo_credentials(status: u16, body: impl Into<String>) -> Reply {
        Reply::EchoCredentials {
            status,
            headers: vec![json_content_type()],
            body: body.into(),
        }
    }

    /// Sets a header, replacing any header of the same name (names compare case-insensitively).
    ///
    /// Headers belong to [`Reply::Http`] and [`Reply::EchoCredentials`], also when wrapped in
    /// [`Reply::Delayed`]. The
    /// other variants send a fixed set of headers because their point is the broken body or
    /// connection, so for them this returns the reply unchanged.
    pub fn with_header(self, name: &str, value: &str) -> Reply {
        match self {
            Reply::Http {
                status,
                mut headers,
                body,
            } => {
                headers.retain(|(existing, _)| !existing.eq_ignore_ascii_case(name));
                headers.push((name.to_owned(), value.to_owned()));
                Reply::Http {
                    status,
                    headers,
                    body,
                }
            }
            Reply::EchoCredentials {
                status,
                mut headers,
                body,
            } => {
                headers.retain(|(existing, _)| !existing.eq_ignore_ascii_case(name));
                headers.push((name.to_owned(), value.to_owned()));
                Reply::EchoCredentials {
                    status,
                    headers,
                    body,
                }
            }
            Reply::Delayed(delay, inner) => {
                Reply::Delayed(delay, Box::new(inner.with_header(name, value)))
            }
            other => other,
        }
    }

    /// The reply with the request's credentials filled into an [`Reply::EchoCredentials`]
    /// (also inside [`Reply::Delayed`]); other replies are returned unchanged.
    pub(crate) fn with_echoed(self, authorization: Option<&str>) -> Reply {
        match self {
            Reply::EchoCredentials {
                status,
                headers,
                body,
            } => {
                let authorization = authorization.unwrap_or_default();
                let key = ["Bearer ", "Api-Key ", "Basic "]
                    .into_iter()
                    .find_map(|scheme| authorization.strip_prefix(scheme))
                    .unwrap_or_default()
                    .trim();
                let fill = |template: &str| {
                    template
                        .replace(ECHO_AUTHORIZATION, authorization)
                        .replace(ECHO_KEY, key)
                };
                Reply::Http {
                    status,
                    headers: headers
                        .iter()
                        .map(|(name, value)| (name.clone(), fill(value)))
                        .collect(),
                    body: fill(&body).into_bytes(),
                }
            }
            Reply::Delayed(delay, inner) => {
                Reply::Delayed(delay, Box::new(inner.with_echoed(authorization)))
            }
            other => other,
        }
    }

    /// Wraps this reply so that it is sent only after `delay`.
    pub fn delayed(self, delay: Duration) -> Reply {
        Reply::Delayed(delay, Box::new(self))
    }
}

/// The body of a chat-completions answer in the shape OpenAI documents, with one choice, the
/// given message fields and finish reason, and the [`CANNED_USAGE`] token counts.
pub fn chat_completion_body(
    content: Option<&str>,
    refusal: Option<&str>,
    finish_reason: &str,
) -> String {
    let (prompt_tokens, completion_tokens) = CANNED_USAGE;
    serde_json::json!({
        "id": "chatcmpl-standin",
        "object": "chat.completion",
        "created": 1_700_000_000u64,
        "model": "standin-model",
        "choices": [{
            "index": 0,
            "message": {
                "role": "assistant",
                "content": content,
                "refusal": refusal,
            },
            "logprobs": null,
            "finish_reason": finish_reason,
        }],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    })
    .to_string()
}

fn json_content_type() -> (String, String) {
    ("content-type".to_owned(), "application/json".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completion_body_is_a_chat_completions_envelope() {
        let body: serde_json::Value =
            serde_json::from_str(&chat_completion_body(Some("{\"a\":1}"), None, "stop")).unwrap();
        assert_eq!(body["object"], "chat.completion");
        assert_eq!(body["choices"][0]["message"]["content"], "{\"a\":1}");
        assert!(body["choices"][0]["message"]["refusal"].is_null());
        assert_eq!(body["choices"][0]["finish_reason"], "stop");
        assert_eq!(body["usage"]["total_tokens"], 150);
    }

    #[test]
    fn with_header_replaces_a_header_of_the_same_name() {
        let reply = Reply::status(502, "<html></html>").with_header("Content-Type", "text/html");
        let Reply::Http { headers, .. } = reply else {
            panic!("status() builds an Http reply");
        };
        assert_eq!(
            headers,
            vec![("Content-Type".to_owned(), "text/html".to_owned())]
        );
    }

    #[test]
    fn with_header_reaches_inside_a_delay() {
        let reply = Reply::completion("x")
            .delayed(Duration::from_millis(5))
            .with_header("retry-after", "1");
        let Reply::Delayed(_, inner) = reply else {
            panic!("delayed() wraps the reply");
        };
        let Reply::Http { headers, .. } = *inner else {
            panic!("completion() builds an Http reply");
        };
        assert!(headers.contains(&("retry-after".to_owned(), "1".to_owned())));
    }

    #[test]
    fn echo_credentials_fills_in_the_key_and_the_header() {
        let reply = Reply::echo_credentials(400, "{\"k\":\"{{key}}\",\"a\":\"{{authorization}}\"}")
            .with_header("location", "https://x.example/?key={{key}}")
            .delayed(Duration::from_millis(1))
            .with_echoed(Some("Bearer sk-canary"));
        let Reply::Delayed(_, inner) = reply else {
            panic!("the delay is kept");
        };
        let Reply::Http {
            status,
            headers,
            body,
        } = *inner
        else {
            panic!("an echo becomes an Http reply");
        };
        assert_eq!(status, 400);
        assert_eq!(
            String::from_utf8(body).unwrap(),
            "{\"k\":\"sk-canary\",\"a\":\"Bearer sk-canary\"}"
        );
        assert!(headers.contains(&(
            "location".to_owned(),
            "https://x.example/?key=sk-canary".to_owned()
        )));
        let Reply::Http { body, .. } = Reply::echo_credentials(200, "[{{key}}]").with_echoed(None)
        else {
            panic!("an echo becomes an Http reply");
        };
        assert_eq!(body, b"[]");
    }
}
