//! The request the adapter sends, whose serde form is exactly the wire body.

use serde::{Deserialize, Serialize};

use crate::config::Protocol;
use crate::error::LlmError;
use crate::mode::ResponseFormatKind;

/// One chat-completions request.
///
/// Serialising it yields exactly the JSON body that is posted:
/// `{"model", "messages", "temperature", "max_tokens", "response_format"}`, so a context
/// record can store what the model saw by serialising this value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatRequest {
    /// The provider's model name.
    pub model: String,
    /// The conversation, normally one system and one user message.
    pub messages: Vec<Message>,
    /// The sampling temperature.
    #[serde(serialize_with = "serialize_shortest_decimal")]
    pub temperature: f32,
    /// The cap on generated tokens; an answer cut by it ends with `finish_reason` `length`.
    pub max_tokens: u32,
    /// How the provider is asked to shape the answer.
    pub response_format: ResponseFormat,
}

/// One message of the conversation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// Who speaks.
    pub role: Role,
    /// The text.
    pub content: String,
}

impl Message {
    /// A system message.
    pub fn system(content: impl Into<String>) -> Message {
        Message {
            role: Role::System,
            content: content.into(),
        }
    }

    /// A user message.
    pub fn user(content: impl Into<String>) -> Message {
        Message {
            role: Role::User,
            content: content.into(),
        }
    }

    /// A message the model wrote earlier, sent back when asking it to correct itself.
    pub fn assistant(content: impl Into<String>) -> Message {
        Message {
            role: Role::Assistant,
            content: content.into(),
        }
    }
}

/// The author of a message, serialised in lower case as the API expects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Instructions that frame the task.
    System,
    /// The input to work on.
    User,
    /// The model's own earlier answer.
    Assistant,
}

/// How the answer is constrained.
///
/// It serialises to the wire form: `{"type":"json_schema","json_schema":{"name",
/// "strict","schema"}}` or `{"type":"json_object"}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(into = "WireResponseFormat", from = "WireResponseFormat")]
pub enum ResponseFormat {
    /// Structured output against a JSON Schema, for providers that support it.
    JsonSchema {
        /// The schema's registered name, as the provider shows it.
        name: String,
        /// The schema document sent to the provider.
        schema: serde_json::Value,
        /// Whether the provider must follow the schema exactly (OpenAI strict mode).
        strict: bool,
    },
    /// Any JSON object; the schema then travels in the prompt and is enforced locally.
    JsonObject,
    /// Forced function calling: the model must call the one function described, and its
    /// arguments, a JSON object, are the answer ([`crate::Completion::content`] carries them
    /// serialised). GigaChat offers it on every tier; chat completions send it in the same
    /// `functions` / `function_call` form, which OpenAI still accepts. The Responses API is
    /// not asked in this mode.
    FunctionCall {
        /// The function's name, such as the schema's registered name.
        name: String,
        /// What the function is for, which the model reads.
        description: String,
        /// The JSON Schema of its arguments.
        parameters: serde_json::Value,
    },
}

impl ResponseFormat {
    /// Which mode this format asks for, without its schema.
    pub fn kind(&self) -> ResponseFormatKind {
        match self {
            ResponseFormat::JsonSchema { .. } => ResponseFormatKind::JsonSchema,
            ResponseFormat::JsonObject => ResponseFormatKind::JsonObject,
            ResponseFormat::FunctionCall { .. } => ResponseFormatKind::FunctionCall,
        }
    }
}

/// Writes an `f32` as the shortest decimal that reads back as it (`0.2`, not
/// `0.20000000298023224`), so that the body and a `serde_json::Value` made from the request
/// show the number the caller wrote.
fn serialize_shortest_decimal<S: serde::Serializer>(
    value: &f32,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let widened = value
        .to_string()
        .parse::<f64>()
        .unwrap_or(f64::from(*value));
    serializer.serialize_f64(widened)
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum WireResponseFormat {
    JsonSchema { json_schema: WireJsonSchema },
    JsonObject,
    FunctionCall { function: WireFunction },
}

#[derive(Serialize, Deserialize)]
struct WireFunction {
    name: String,
    description: String,
    parameters: serde_json::Value,
}

#[derive(Serialize, Deserialize)]
struct WireJsonSchema {
    name: String,
    strict: bool,
    schema: serde_json::Value,
}

impl From<ResponseFormat> for WireResponseFormat {
    fn from(format: ResponseFormat) -> WireResponseFormat {
        match format {
            ResponseFormat::JsonSchema {
                name,
                schema,
                strict,
            } => WireResponseFormat::JsonSchema {
                json_schema: WireJsonSchema {
                    name,
                    strict,
                    schema,
                },
            },
            ResponseFormat::JsonObject => WireResponseFormat::JsonObject,
            ResponseFormat::FunctionCall {
                name,
                description,
                parameters,
            } => WireResponseFormat::FunctionCall {
                function: WireFunction {
                    name,
                    description,
                    parameters,
                },
            },
        }
    }
}

impl From<WireResponseFormat> for ResponseFormat {
    fn from(format: WireResponseFormat) -> ResponseFormat {
        match format {
            WireResponseFormat::JsonSchema { json_schema } => ResponseFormat::JsonSchema {
                name: json_schema.name,
                schema: json_schema.schema,
                strict: json_schema.strict,
            },
            WireResponseFormat::JsonObject => ResponseFormat::JsonObject,
            WireResponseFormat::FunctionCall { function } => ResponseFormat::FunctionCall {
                name: function.name,
                description: function.description,
                parameters: function.parameters,
            },
        }
    }
}

/// The body posted for `request` under `protocol`.
///
/// Chat completions post the request's own serde form, except that the function-call mode
/// becomes `functions` and `function_call`. GigaChat takes the same body with its own
/// `response_format` (`{"type":"json_schema","schema":…}`, no name or strict flag). The
/// Responses API takes the messages as `input`, `max_output_tokens`, and the format under
/// `text.format` (`{"type":"json_schema","name","schema","strict"}` or
/// `{"type":"json_object"}`); it is not asked for function calling here.
pub(crate) fn wire_body(
    request: &ChatRequest,
    protocol: Protocol,
) -> Result<serde_json::Value, LlmError> {
    use serde_json::{Value, json};
    let unserialisable = |error: serde_json::Error| LlmError::BadConfig {
        message: format!("the request cannot be serialised: {error}"),
    };
    let mut body = serde_json::to_value(request).map_err(unserialisable)?;
    let Value::Object(members) = &mut body else {
        return Err(LlmError::BadConfig {
            message: "the request did not serialise to an object".to_owned(),
        });
    };
    if let ResponseFormat::FunctionCall {
        name,
        description,
        parameters,
    } = &request.response_format
    {
        if protocol == Protocol::Responses {
            return Err(LlmError::BadConfig {
                message: "the Responses API is not asked in the function_call mode; \
                          choose json_schema or json_object"
                    .to_owned(),
            });
        }
        members.remove("response_format");
        members.insert(
            "functions".to_owned(),
            json!([{"name": name, "description": description, "parameters": parameters}]),
        );
        members.insert("function_call".to_owned(), json!({"name": name}));
        return Ok(body);
    }
    match protocol {
        Protocol::ChatCompletions => {}
        Protocol::GigaChat => {
            if let ResponseFormat::JsonSchema { schema, .. } = &request.response_format {
                members.insert(
                    "response_format".to_owned(),
                    json!({"type": "json_schema", "schema": schema}),
                );
            }
        }
        Protocol::Responses => {
            let format = match &request.response_format {
                ResponseFormat::JsonSchema {
                    name,
                    schema,
                    strict,
                } => {
                    json!({"type": "json_schema", "name": name, "schema": schema, "strict": strict})
                }
                _ => json!({"type": "json_object"}),
            };
            let input = members.remove("messages").unwrap_or(Value::Null);
            let max_tokens = members.remove("max_tokens").unwrap_or(Value::Null);
            members.remove("response_format");
            members.insert("input".to_owned(), input);
            members.insert("max_output_tokens".to_owned(), max_tokens);
            members.insert("text".to_owned(), json!({"format": format}));
        }
    }
    Ok(body)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn request(response_format: ResponseFormat) -> ChatRequest {
        ChatRequest {
            model: "gpt-4o-mini".to_owned(),
            messages: vec![Message::system("Ты помощник."), Message::user("Темно.")],
            temperature: 0.2,
            max_tokens: 800,
            response_format,
        }
    }

    #[test]
    fn json_schema_request_serialises_to_the_wire_body() {
        let request = request(ResponseFormat::JsonSchema {
            name: "zayavka_draft".to_owned(),
            schema: json!({"type": "object"}),
            strict: true,
        });
        let body = serde_json::to_value(&request).unwrap();
        assert_eq!(
            body,
            json!({
                "model": "gpt-4o-mini",
                "messages": [
                    {"role": "system", "content": "Ты помощник."},
                    {"role": "user", "content": "Темно."},
                ],
                "temperature": 0.2,
                "max_tokens": 800,
                "response_format": {
                    "type": "json_schema",
                    "json_schema": {"name": "zayavka_draft", "strict": true, "schema": {"type": "object"}},
                },
            })
        );
        assert_eq!(serde_json::to_string(&request).unwrap(), body.to_string());
        let back: ChatRequest = serde_json::from_value(body).unwrap();
        assert_eq!(back, request);
    }

    #[test]
    fn json_object_request_serialises_to_the_wire_body() {
        let body = serde_json::to_value(request(ResponseFormat::JsonObject)).unwrap();
        assert_eq!(body["response_format"], json!({"type": "json_object"}));
    }

    #[test]
    fn format_kinds_have_unique_codes_that_round_trip() {
        let codes: std::collections::HashSet<&str> = ResponseFormatKind::ALL
            .iter()
            .copied()
            .map(ResponseFormatKind::code)
            .collect();
        assert_eq!(codes.len(), ResponseFormatKind::ALL.len());
        for &kind in ResponseFormatKind::ALL {
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{kind}\""));
            assert_eq!(
                serde_json::from_str::<ResponseFormatKind>(&json).unwrap(),
                kind
            );
            assert_eq!(kind.code().parse::<ResponseFormatKind>(), Ok(kind));
            assert_ne!(kind.other(), kind);
        }
        assert!("text".parse::<ResponseFormatKind>().is_err());
    }

    #[test]
    fn a_format_names_its_kind_as_its_wire_type() {
        let strict = ResponseFormat::JsonSchema {
            name: "x".to_owned(),
            schema: json!({}),
            strict: true,
        };
        let function = ResponseFormat::FunctionCall {
            name: "x".to_owned(),
            description: "d".to_owned(),
            parameters: json!({}),
        };
        for format in [strict, ResponseFormat::JsonObject, function] {
            let wire = serde_json::to_value(&format).unwrap();
            assert_eq!(wire["type"], format.kind().code());
        }
    }

    fn draft_schema() -> ResponseFormat {
        ResponseFormat::JsonSchema {
            name: "zayavka_draft".to_owned(),
            schema: json!({"type": "object"}),
            strict: true,
        }
    }

    #[test]
    fn chat_completions_post_the_request_itself() {
        let request = request(draft_schema());
        assert_eq!(
            wire_body(&request, Protocol::ChatCompletions).unwrap(),
            serde_json::to_value(&request).unwrap()
        );
    }

    #[test]
    fn the_responses_api_gets_input_and_text_format() {
        let body = wire_body(&request(draft_schema()), Protocol::Responses).unwrap();
        assert_eq!(
            body,
            json!({
                "model": "gpt-4o-mini",
                "temperature": 0.2,
                "input": [
                    {"role": "system", "content": "Ты помощник."},
                    {"role": "user", "content": "Темно."},
                ],
                "max_output_tokens": 800,
                "text": {"format": {"type": "json_schema", "name": "zayavka_draft", "schema": {"type": "object"}, "strict": true}},
            })
        );
        let object = wire_body(&request(ResponseFormat::JsonObject), Protocol::Responses).unwrap();
        assert_eq!(object["text"], json!({"format": {"type": "json_object"}}));
    }

    #[test]
    fn gigachat_gets_the_schema_directly_under_response_format() {
        let body = wire_body(&request(draft_schema()), Protocol::GigaChat).unwrap();
        assert_eq!(
            body["response_format"],
            json!({"type": "json_schema", "schema": {"type": "object"}})
        );
        assert_eq!(body["max_tokens"], 800);
    }

    #[test]
    fn the_function_call_mode_forces_one_function() {
        let function = ResponseFormat::FunctionCall {
            name: "zayavka_draft".to_owned(),
            description: "Черновик заявки".to_owned(),
            parameters: json!({"type": "object"}),
        };
        let request = request(function);
        for protocol in [Protocol::GigaChat, Protocol::ChatCompletions] {
            let body = wire_body(&request, protocol).unwrap();
            assert_eq!(body.get("response_format"), None);
            assert_eq!(
                body["functions"],
                json!([{"name": "zayavka_draft", "description": "Черновик заявки", "parameters": {"type": "object"}}])
            );
            assert_eq!(body["function_call"], json!({"name": "zayavka_draft"}));
        }
        assert!(matches!(
            wire_body(&request, Protocol::Responses),
            Err(LlmError::BadConfig { .. })
        ));
        let record = serde_json::to_value(&request).unwrap();
        assert_eq!(record["response_format"]["type"], "function_call");
        let back: ChatRequest = serde_json::from_value(record).unwrap();
        assert_eq!(back, request);
    }
}
