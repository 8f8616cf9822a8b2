//! Where to send the call and how much time, how many attempts and how many bytes it may use.

use std::time::Duration;

use url::Url;
use zayavka_codes::stable_codes;

use crate::error::LlmError;
use crate::mode::ResponseFormatKind;
use crate::secret::ApiKey;

stable_codes! {
    /// The wire protocol a provider speaks: which path the request goes to, how the request body
    /// is shaped and how the answer is read. Callers stay protocol-neutral: they build a
    /// [`crate::ChatRequest`] and read a [`crate::Completion`] whatever the protocol.
    #[derive(Default)]
    pub enum Protocol {
        /// OpenAI's chat completions, `POST {base_url}/chat/completions`: OpenAI, OpenRouter,
        /// Yandex AI Studio, Ollama, LM Studio, llama.cpp and most others.
        #[default]
        ChatCompletions => "chat_completions",
        /// OpenAI's Responses API, `POST {base_url}/responses`, with the messages as `input` and
        /// the format under `text.format`; Yandex AI Studio offers it too.
        Responses => "responses",
        /// GigaChat's variant of chat completions, `POST {base_url}/chat/completions`: its
        /// `response_format` carries the schema directly, it offers forced function calling, and
        /// its content filter finishes with `blacklist`.
        GigaChat => "gigachat",
    }
}

impl Protocol {
    /// The path segments appended to the base URL for a request.
    fn path(self) -> &'static [&'static str] {
        match self {
            Protocol::ChatCompletions | Protocol::GigaChat => &["chat", "completions"],
            Protocol::Responses => &["responses"],
        }
    }

    /// The response formats this protocol can ask for, the stricter first: the modes
    /// [`crate::Client::probe_schema_modes`] tries.
    pub fn schema_modes(self) -> &'static [ResponseFormatKind] {
        match self {
            Protocol::ChatCompletions | Protocol::Responses => &[
                ResponseFormatKind::JsonSchema,
                ResponseFormatKind::JsonObject,
            ],
            Protocol::GigaChat => &[
                ResponseFormatKind::JsonSchema,
                ResponseFormatKind::FunctionCall,
            ],
        }
    }

    /// The mode to suggest when a server of this protocol refuses `mode`.
    pub fn alternative_mode(self, mode: ResponseFormatKind) -> ResponseFormatKind {
        self.schema_modes()
            .iter()
            .copied()
            .find(|other| *other != mode)
            .unwrap_or_else(|| mode.other())
    }
}

/// How the key is presented to the provider.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Authentication {
    /// `Authorization: Bearer <key>`: OpenAI, OpenRouter, a Yandex IAM token, local servers.
    #[default]
    Bearer,
    /// `Authorization: Api-Key <key>`: a Yandex AI Studio service account's API key.
    ApiKey,
    /// GigaChat's OAuth: the key is the «authorization key», exchanged at `auth_url` (with
    /// `Authorization: Basic <key>` and `scope=<scope>`) for an access token that is then
    /// sent as `Authorization: Bearer <token>`. The token lives in the client's memory only.
    GigaChat {
        /// The token endpoint, such as `https://ngw.devices.sberbank.ru:9443/api/v2/oauth`.
        auth_url: Url,
        /// The access scope: `GIGACHAT_API_PERS`, `GIGACHAT_API_B2B` or `GIGACHAT_API_CORP`.
        scope: String,
    },
}

/// A provider: where requests go, in which protocol, and with which credentials.
#[derive(Debug, Clone)]
pub struct Endpoint {
    /// The API root, such as `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`;
    /// a trailing slash makes no difference.
    pub base_url: Url,
    /// The key, presented as [`Endpoint::authentication`] says; `None` for local servers
    /// that need none.
    pub api_key: Option<ApiKey>,
    /// The wire protocol; chat completions unless set.
    pub protocol: Protocol,
    /// How the key is presented; `Bearer` unless set.
    pub authentication: Authentication,
    /// Extra request headers, such as Yandex's `x-folder-id`, sent with every request to the
    /// API (not to a token endpoint). Their values are not secret and may be logged.
    pub headers: Vec<(String, String)>,
    /// Root certificates this endpoint's client trusts in addition to the usual roots, each
    /// in DER or PEM form (a PEM file may hold several), such as the Russian Trusted Root CA
    /// for GigaChat. They apply to this client only; certificate verification itself is
    /// never switched off.
    pub extra_root_certificates: Vec<Vec<u8>>,
}

impl Endpoint {
    /// A chat-completions endpoint for `base_url` with `Bearer` authentication, with or
    /// without a key.
    pub fn new(base_url: Url, api_key: Option<ApiKey>) -> Endpoint {
        Endpoint {
            base_url,
            api_key,
            protocol: Protocol::ChatCompletions,
            authentication: Authentication::Bearer,
            headers: Vec::new(),
            extra_root_certificates: Vec::new(),
        }
    }

    /// Yandex AI Studio: `Authorization: Api-Key <api_key>`, `x-folder-id: <folder_id>`, and
    /// chat completions or the Responses API as `protocol` says.
    pub fn yandex_ai_studio(
        base_url: Url,
        api_key: ApiKey,
        folder_id: &str,
        protocol: Protocol,
    ) -> Endpoint {
        Endpoint::new(base_url, Some(api_key))
            .with_protocol(protocol)
            .with_authentication(Authentication::ApiKey)
            .with_header("x-folder-id", folder_id)
    }

    /// GigaChat: the authorization key is exchanged at `auth_url` for an access token for
    /// `scope`, and requests use GigaChat's chat-completions variant.
    pub fn gigachat(
        base_url: Url,
        authorization_key: ApiKey,
        auth_url: Url,
        scope: &str,
    ) -> Endpoint {
        Endpoint::new(base_url, Some(authorization_key))
            .with_protocol(Protocol::GigaChat)
            .with_authentication(Authentication::GigaChat {
                auth_url,
                scope: scope.to_owned(),
            })
    }

    /// The same endpoint speaking `protocol`.
    pub fn with_protocol(mut self, protocol: Protocol) -> Endpoint {
        self.protocol = protocol;
        self
    }

    /// The same endpoint presenting its key as `authentication` says.
    pub fn with_authentication(mut self, authentication: Authentication) -> Endpoint {
        self.authentication = authentication;
        self
    }

    /// The same endpoint sending one more header with every API request; a header of the
    /// same name (compared case-insensitively) is replaced.
    pub fn with_header(mut self, name: &str, value: &str) -> Endpoint {
        self.headers
            .retain(|(existing, _)| !existing.eq_ignore_ascii_case(name));
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }

    /// The same endpoint trusting one more root certificate, in DER or PEM form, in addition
    /// to the usual roots.
    pub fn with_root_certificate(mut self, certificate: impl Into<Vec<u8>>) -> Endpoint {
        self.extra_root_certificates.push(certificate.into());
        self
    }

    /// The URL chat-completions requests are posted to; see [`Endpoint::request_url`].
    pub fn chat_completions_url(&self) -> Result<Url, LlmError> {
        self.url_for(&["chat", "completions"])
    }

    /// The URL requests are posted to under this endpoint's protocol:
    /// `{base_url}/chat/completions` or `{base_url}/responses`.
    ///
    /// The path is appended to the base URL's path, keeping any query string (some gateways
    /// carry an API version there). A base URL that already ends in the path, as people copy
    /// it from provider docs, is used as it is.
    pub fn request_url(&self) -> Result<Url, LlmError> {
        self.url_for(self.protocol.path())
    }

    /// `GET {base_url}/models`, which [`crate::Client::probe`] asks.
    pub(crate) fn models_url(&self) -> Result<Url, LlmError> {
        let mut url = self.checked_base()?;
        let trimmed = url.path().trim_end_matches('/');
        let root = [self.protocol.path(), &["chat", "completions"][..]]
            .into_iter()
            .map(|segments| format!("/{}", segments.join("/")))
            .find_map(|suffix| trimmed.strip_suffix(&suffix))
            .unwrap_or(trimmed)
            .to_owned();
        url.set_path(&format!("{root}/models"));
        Ok(url)
    }

    fn checked_base(&self) -> Result<Url, LlmError> {
        let base = &self.base_url;
        if !matches!(base.scheme(), "http" | "https") {
            return Err(LlmError::BadConfig {
                message: format!(
                    "the base URL must start with http:// or https://, not {}://",
                    base.scheme()
                ),
            });
        }
        if base.host_str().is_none_or(str::is_empty) {
            return Err(LlmError::BadConfig {
                message: "the base URL has no host".to_owned(),
            });
        }
        let mut url = base.clone();
        url.set_fragment(None);
        Ok(url)
    }

    fn url_for(&self, segments: &[&str]) -> Result<Url, LlmError> {
        let mut url = self.checked_base()?;
        let suffix = format!("/{}", segments.join("/"));
        if url.path().trim_end_matches('/').ends_with(&suffix) {
            let trimmed = url.path().trim_end_matches('/').to_owned();
            url.set_path(&trimmed);
            return Ok(url);
        }
        url.path_segments_mut()
            .map_err(|()| LlmError::BadConfig {
                message: "the base URL cannot have a path appended".to_owned(),
            })?
            .pop_if_empty()
            .extend(segments);
        Ok(url)
    }
}

/// The invocation budget: every limit that bounds one [`crate::Client::complete`] call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Budget {
    /// How long establishing a TCP (and TLS) connection may take.
    pub connect_timeout: Duration,
    /// How long one attempt may take, from sending the request to the last byte of the body.
    pub attempt_timeout: Duration,
    /// How long the whole call may take, across attempts and the waits between them.
    pub overall_deadline: Duration,
    /// How many attempts at most, the first one included; at least 1.
    pub max_attempts: u32,
    /// The backoff before the second attempt; it doubles for each further attempt.
    pub backoff_base: Duration,
    /// The largest backoff between two attempts.
    pub backoff_max: Duration,
    /// The longest wait a provider's `Retry-After` can impose; longer requests are cut to it.
    pub retry_after_cap: Duration,
    /// The largest response body accepted, in bytes.
    pub max_response_bytes: usize,
}

impl Default for Budget {
    /// Limits that suit a hosted model producing a short structured answer: a slow answer
    /// takes tens of seconds, and a resident should not wait more than three minutes.
    fn default() -> Budget {
        Budget {
            connect_timeout: Duration::from_secs(10),
            attempt_timeout: Duration::from_secs(60),
            overall_deadline: Duration::from_secs(180),
            max_attempts: 3,
            backoff_base: Duration::from_millis(500),
            backoff_max: Duration::from_secs(8),
            retry_after_cap: Duration::from_secs(30),
            max_response_bytes: 2 * 1024 * 1024,
        }
    }
}

impl Budget {
    /// Rejects budgets under which no call could ever succeed.
    pub(crate) fn validate(&self) -> Result<(), LlmError> {
        let problem = if self.max_attempts == 0 {
            Some("max_attempts must be at least 1")
        } else if self.connect_timeout.is_zero()
            || self.attempt_timeout.is_zero()
            || self.overall_deadline.is_zero()
        {
            Some("timeouts and the overall deadline must be greater than zero")
        } else if self.max_response_bytes == 0 {
            Some("max_response_bytes must be greater than zero")
        } else {
            None
        };
        match problem {
            Some(message) => Err(LlmError::BadConfig {
                message: message.to_owned(),
            }),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn join(base: &str) -> String {
        Endpoint::new(Url::parse(base).unwrap(), None)
            .chat_completions_url()
            .map(String::from)
            .unwrap_or_else(|error| error.to_string())
    }

    #[test]
    fn appends_the_path_with_or_without_a_trailing_slash() {
        assert_eq!(
            join("http://127.0.0.1:1234/v1"),
            "http://127.0.0.1:1234/v1/chat/completions"
        );
        assert_eq!(
            join("http://127.0.0.1:1234/v1/"),
            "http://127.0.0.1:1234/v1/chat/completions"
        );
        assert_eq!(
            join("https://openrouter.ai/api/v1"),
            "https://openrouter.ai/api/v1/chat/completions"
        );
        assert_eq!(
            join("http://localhost:8080"),
            "http://localhost:8080/chat/completions"
        );
        assert_eq!(
            join("http://localhost:8080/"),
            "http://localhost:8080/chat/completions"
        );
    }

    #[test]
    fn keeps_the_query_and_drops_the_fragment() {
        assert_eq!(
            join("https://gw.example/openai/v1?api-version=2024-10-21#top"),
            "https://gw.example/openai/v1/chat/completions?api-version=2024-10-21"
        );
    }

    #[test]
    fn accepts_a_url_that_already_names_the_endpoint() {
        assert_eq!(
            join("https://api.openai.com/v1/chat/completions/"),
            "https://api.openai.com/v1/chat/completions"
        );
    }

    #[test]
    fn refuses_urls_that_are_not_http() {
        assert!(join("ftp://example.com/v1").contains("http://"));
        assert!(join("mailto:someone@example.com").contains("http://"));
    }

    #[test]
    fn each_protocol_has_its_path_and_the_model_list_sits_beside_it() {
        let base = Url::parse("https://ai.api.cloud.yandex.net/v1/").unwrap();
        let responses = Endpoint::new(base.clone(), None).with_protocol(Protocol::Responses);
        assert_eq!(
            responses.request_url().unwrap().as_str(),
            "https://ai.api.cloud.yandex.net/v1/responses"
        );
        assert_eq!(
            responses.models_url().unwrap().as_str(),
            "https://ai.api.cloud.yandex.net/v1/models"
        );
        let copied = Endpoint::new(
            Url::parse("https://ai.api.cloud.yandex.net/v1/responses").unwrap(),
            None,
        )
        .with_protocol(Protocol::Responses);
        assert_eq!(
            copied.request_url().unwrap(),
            responses.request_url().unwrap()
        );
        assert_eq!(
            copied.models_url().unwrap(),
            responses.models_url().unwrap()
        );
        let giga = Endpoint::new(base, None).with_protocol(Protocol::GigaChat);
        assert_eq!(
            giga.request_url().unwrap().as_str(),
            "https://ai.api.cloud.yandex.net/v1/chat/completions"
        );
        for &protocol in Protocol::ALL {
            let json = serde_json::to_string(&protocol).unwrap();
            assert_eq!(json, format!("\"{protocol}\""));
        }
    }

    #[test]
    fn a_header_of_the_same_name_is_replaced() {
        let endpoint = Endpoint::new(Url::parse("http://127.0.0.1/v1").unwrap(), None)
            .with_header("x-folder-id", "a")
            .with_header("X-Folder-Id", "b");
        assert_eq!(
            endpoint.headers,
            [("X-Folder-Id".to_owned(), "b".to_owned())]
        );
    }

    #[test]
    fn default_budget_is_valid_and_a_zero_attempt_budget_is_not() {
        assert_eq!(Budget::default().validate(), Ok(()));
        let budget = Budget {
            max_attempts: 0,
            ..Budget::default()
        };
        assert!(matches!(budget.validate(), Err(LlmError::BadConfig { .. })));
    }
}
