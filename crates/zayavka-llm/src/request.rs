//! The request the adapter sends, whose serde form is exactly the wire body.

use serde::{Deserialize, Serialize};

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
}

impl ResponseFormat {
    /// Which mode this format asks for, without its schema.
    pub fn kind(&self) -> ResponseFormatKind {
        match self {
            ResponseFormat::JsonSchema { .. } => ResponseFormatKind::JsonSchema,
            ResponseFormat::JsonObject => ResponseFormatKind::JsonObject,
        }
    }
}

/// The mode a [`ResponseFormat`] asks for, named by its wire `type`: what a server may refuse
/// ([`crate::LlmError::SchemaModeUnsupported`]) and what
/// [`crate::Client::probe_schema_modes`] tries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResponseFormatKind {
    /// `{"type":"json_schema", …}`: the provider is given the schema and enforces it.
    JsonSchema,
    /// `{"type":"json_object"}`: the provider only promises a JSON object.
    JsonObject,
}

impl ResponseFormatKind {
    /// Every mode, the stricter first: the order in which they are worth trying.
    pub const ALL: [ResponseFormatKind; 2] = [
        ResponseFormatKind::JsonSchema,
        ResponseFormatKind::JsonObject,
    ];

    /// The wire `type`, which is also the serde form: `json_schema` or `json_object`.
    pub fn as_str(self) -> &'static str {
        match self {
            ResponseFormatKind::JsonSchema => "json_schema",
            ResponseFormatKind::JsonObject => "json_object",
        }
    }

    /// The other mode, the one to suggest when a server refuses this one.
    pub fn other(self) -> ResponseFormatKind {
        match self {
            ResponseFormatKind::JsonSchema => ResponseFormatKind::JsonObject,
            ResponseFormatKind::JsonObject => ResponseFormatKind::JsonSchema,
        }
    }
}

impl std::fmt::Display for ResponseFormatKind {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(self.as_str())
    }
}

/// A string that is not the wire `type` of any [`ResponseFormatKind`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a known response format type")]
pub struct UnknownResponseFormatKind(pub String);

impl std::str::FromStr for ResponseFormatKind {
    type Err = UnknownResponseFormatKind;

    fn from_str(code: &str) -> Result<ResponseFormatKind, UnknownResponseFormatKind> {
        ResponseFormatKind::ALL
            .into_iter()
            .find(|kind| kind.as_str() == code)
            .ok_or_else(|| UnknownResponseFormatKind(code.to_owned()))
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
        }
    }
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
            .into_iter()
            .map(ResponseFormatKind::as_str)
            .collect();
        assert_eq!(codes.len(), ResponseFormatKind::ALL.len());
        for kind in ResponseFormatKind::ALL {
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{kind}\""));
            assert_eq!(
                serde_json::from_str::<ResponseFormatKind>(&json).unwrap(),
                kind
            );
            assert_eq!(kind.as_str().parse::<ResponseFormatKind>(), Ok(kind));
            assert_eq!(kind.other().other(), kind);
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
        for format in [strict, ResponseFormat::JsonObject] {
            let wire = serde_json::to_value(&format).unwrap();
            assert_eq!(wire["type"], format.kind().as_str());
        }
    }
}
