//! The response format modes a request can ask for, by their wire names. A leaf: the
//! endpoint's protocol lists them, an error names them, a request is built in one.

use serde::{Deserialize, Serialize};

/// The mode a [`crate::ResponseFormat`] asks for, named by its wire `type`: what a server may refuse
/// ([`crate::LlmError::SchemaModeUnsupported`]) and what
/// [`crate::Client::probe_schema_modes`] tries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResponseFormatKind {
    /// `{"type":"json_schema", …}`: the provider is given the schema and enforces it.
    JsonSchema,
    /// `{"type":"json_object"}`: the provider only promises a JSON object.
    JsonObject,
    /// `functions` and `function_call`: the model must call one function whose arguments
    /// follow the schema; GigaChat's mode for every tier.
    FunctionCall,
}

impl ResponseFormatKind {
    /// Every mode, the stricter first: the order in which they are worth trying.
    pub const ALL: [ResponseFormatKind; 3] = [
        ResponseFormatKind::JsonSchema,
        ResponseFormatKind::JsonObject,
        ResponseFormatKind::FunctionCall,
    ];

    /// The stable code, which is also the serde form: `json_schema`, `json_object` (the
    /// wire `type` of chat completions) or `function_call`.
    pub fn as_str(self) -> &'static str {
        match self {
            ResponseFormatKind::JsonSchema => "json_schema",
            ResponseFormatKind::JsonObject => "json_object",
            ResponseFormatKind::FunctionCall => "function_call",
        }
    }

    /// The mode to suggest to an OpenAI-compatible server that refuses this one:
    /// `json_schema` and `json_object` name each other, and `function_call` names
    /// `json_schema`. [`crate::Protocol::alternative_mode`] knows GigaChat's pair.
    pub fn other(self) -> ResponseFormatKind {
        match self {
            ResponseFormatKind::JsonSchema => ResponseFormatKind::JsonObject,
            ResponseFormatKind::JsonObject | ResponseFormatKind::FunctionCall => {
                ResponseFormatKind::JsonSchema
            }
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
