//! From the effective settings to the adapter's terms: [`ProviderSettings::endpoint`] says where
//! requests go, in which protocol, with which headers, how the key is presented and which extra
//! root certificate is trusted, and [`ProviderSettings::response_format_kind`] names the schema
//! mode in the adapter's words. Every place that calls a provider (a draft, a batch, `doctor`)
//! builds its endpoint here, so a service is never half-configured in one of them.

use zayavka_llm::{Authentication, Endpoint, ResponseFormatKind};

use super::SchemaMode;
use super::resolve::{ProviderSettings, ServiceAccess};
use super::values::{Protocol, YandexAuth};

/// Yandex AI Studio's header naming the folder a request is billed to.
const YANDEX_FOLDER_HEADER: &str = "x-folder-id";

impl ProviderSettings {
    /// The adapter's endpoint for these settings, with `api_key` (the stored or given key; for
    /// GigaChat, the authorization key that is exchanged for access tokens).
    ///
    /// The Russian Trusted Root CA is trusted for a GigaChat profile only, in addition to the
    /// usual roots (ADR 20); no other profile's client ever trusts it.
    pub fn endpoint(&self, api_key: Option<zayavka_llm::ApiKey>) -> Endpoint {
        let base_url = self.base_url.as_url().clone();
        let endpoint = Endpoint::new(base_url, api_key);
        match &self.access {
            ServiceAccess::Standard => endpoint.with_protocol(self.llm_protocol()),
            ServiceAccess::Yandex {
                folder_id,
                auth_scheme,
            } => endpoint
                .with_protocol(self.llm_protocol())
                .with_authentication(match auth_scheme {
                    YandexAuth::ApiKey => Authentication::ApiKey,
                    YandexAuth::IamToken => Authentication::Bearer,
                })
                .with_header(YANDEX_FOLDER_HEADER, folder_id.as_str()),
            ServiceAccess::GigaChat { scope, auth_url } => endpoint
                .with_protocol(zayavka_llm::Protocol::GigaChat)
                .with_authentication(Authentication::GigaChat {
                    auth_url: auth_url.as_url().clone(),
                    scope: scope.code().to_owned(),
                })
                .with_root_certificate(zayavka_llm::RUSSIAN_TRUSTED_ROOT_CA_PEM),
        }
    }

    /// How many rows of a batch go to this service at once unless the activist says otherwise:
    /// one for GigaChat's individuals, whose access serves one request at a time (Sber, «Квоты и
    /// ограничения»), and for a server on this computer, which answers one request at a time
    /// and lets the others wait into their timeouts; four for every other service.
    pub fn default_concurrency(&self) -> std::num::NonZeroUsize {
        let one_at_a_time = self.kind.runs_locally()
            || matches!(
                self.access,
                ServiceAccess::GigaChat {
                    scope: super::values::GigaChatScope::Personal,
                    ..
                }
            );
        let rows = if one_at_a_time { 1 } else { 4 };
        std::num::NonZeroUsize::new(rows).unwrap_or(std::num::NonZeroUsize::MIN)
    }

    /// The wire protocol the adapter speaks to this service.
    pub fn llm_protocol(&self) -> zayavka_llm::Protocol {
        match (&self.access, self.protocol) {
            (ServiceAccess::GigaChat { .. }, _) => zayavka_llm::Protocol::GigaChat,
            (_, Protocol::ChatCompletions) => zayavka_llm::Protocol::ChatCompletions,
            (_, Protocol::Responses) => zayavka_llm::Protocol::Responses,
        }
    }

    /// The profile's schema mode in the adapter's words.
    pub fn response_format_kind(&self) -> ResponseFormatKind {
        match self.schema_mode {
            SchemaMode::JsonSchema => ResponseFormatKind::JsonSchema,
            SchemaMode::JsonObject => ResponseFormatKind::JsonObject,
            SchemaMode::FunctionCall => ResponseFormatKind::FunctionCall,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::config::test_support::parse;
    use crate::config::{ProviderOverrides, ProviderSettings, resolve_provider};
    use zayavka_llm::{ApiKey, Authentication, Protocol, ResponseFormatKind};

    const FOLDER: &str = "b1gaaaaaaaaaaaaaaaaa";

    fn settings(text: &str) -> ProviderSettings {
        resolve_provider(&parse(text).unwrap(), &ProviderOverrides::default())
            .unwrap()
            .unwrap()
    }

    fn key() -> Option<ApiKey> {
        Some(ApiKey::new("test-key-not-real".to_owned()))
    }

    #[test]
    fn issue_15_a_yandex_endpoint_sends_the_folder_and_an_api_key() {
        let yandex = settings(&format!(
            "active_profile = \"yandex\"\n[profiles.yandex]\nfolder_id = \"{FOLDER}\"\n"
        ));
        let endpoint = yandex.endpoint(key());
        assert_eq!(endpoint.protocol, Protocol::ChatCompletions);
        assert_eq!(endpoint.authentication, Authentication::ApiKey);
        assert_eq!(
            endpoint.headers,
            [("x-folder-id".to_owned(), FOLDER.to_owned())]
        );
        assert!(endpoint.extra_root_certificates.is_empty());
        assert_eq!(
            endpoint.request_url().unwrap().as_str(),
            "https://ai.api.cloud.yandex.net/v1/chat/completions"
        );

        let responses = settings(&format!(
            "active_profile = \"yandex\"\n[profiles.yandex]\nfolder_id = \"{FOLDER}\"\n\
             protocol = \"responses\"\nauth_scheme = \"iam_token\"\n"
        ));
        let endpoint = responses.endpoint(key());
        assert_eq!(endpoint.protocol, Protocol::Responses);
        assert_eq!(endpoint.authentication, Authentication::Bearer);
        assert_eq!(
            endpoint.request_url().unwrap().as_str(),
            "https://ai.api.cloud.yandex.net/v1/responses"
        );
    }

    #[test]
    fn issue_15_a_gigachat_endpoint_exchanges_the_key_and_trusts_the_russian_root_only_there() {
        let gigachat = settings(
            "active_profile = \"gigachat\"\n[profiles.gigachat]\nscope = \"GIGACHAT_API_CORP\"\n",
        );
        let endpoint = gigachat.endpoint(key());
        assert_eq!(endpoint.protocol, Protocol::GigaChat);
        let Authentication::GigaChat { auth_url, scope } = &endpoint.authentication else {
            panic!("{:?}", endpoint.authentication);
        };
        assert_eq!(
            auth_url.as_str(),
            "https://ngw.devices.sberbank.ru:9443/api/v2/oauth"
        );
        assert_eq!(scope, "GIGACHAT_API_CORP");
        assert_eq!(endpoint.extra_root_certificates.len(), 1);
        assert_eq!(
            gigachat.response_format_kind(),
            ResponseFormatKind::FunctionCall
        );

        for other in ["openai", "ollama", "openrouter"] {
            let settings = settings(&format!("active_profile = \"{other}\"\n"));
            let endpoint = settings.endpoint(key());
            assert!(endpoint.extra_root_certificates.is_empty(), "{other}");
            assert_eq!(endpoint.authentication, Authentication::Bearer, "{other}");
            assert!(endpoint.headers.is_empty(), "{other}");
        }
    }

    #[test]
    fn issue_15_the_responses_protocol_on_an_openai_profile() {
        let openai =
            settings("active_profile = \"openai\"\n[profiles.openai]\nprotocol = \"responses\"\n");
        let endpoint = openai.endpoint(key());
        assert_eq!(endpoint.protocol, Protocol::Responses);
        assert_eq!(
            endpoint.request_url().unwrap().as_str(),
            "https://api.openai.com/v1/responses"
        );
    }
}
