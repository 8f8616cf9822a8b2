//! The response format modes a request can ask for, by their wire names. A leaf: the
//! endpoint's protocol lists them, an error names them, a request is built in one.

use zayavka_codes::stable_codes;

stable_codes! {
    /// The mode a [`crate::ResponseFormat`] asks for, named by its wire `type`: what a server may
    /// refuse ([`crate::LlmError::SchemaModeUnsupported`]) and what
    /// [`crate::Client::probe_schema_modes`] tries. `ALL` lists the stricter first: the order in
    /// which they are worth trying. The code is also the wire `type` of chat completions.
    pub enum ResponseFormatKind {
        /// `{"type":"json_schema", …}`: the provider is given the schema and enforces it.
        JsonSchema => "json_schema",
        /// `{"type":"json_object"}`: the provider only promises a JSON object.
        JsonObject => "json_object",
        /// `functions` and `function_call`: the model must call one function whose arguments
        /// follow the schema; GigaChat's mode for every tier.
        FunctionCall => "function_call",
    }
}

impl ResponseFormatKind {
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
