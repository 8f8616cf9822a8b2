//! The stand-in playing a named service: it checks credentials and service-specific headers
//! as Yandex AI Studio and GigaChat do, answers failures itself, and leaves the answers to
//! well-formed requests to the script.
//!
//! The error bodies follow the shapes the services document; the exact wording of the real
//! services could not be checked from here, so tests should assert on statuses and kinds,
//! not on these texts.

use std::collections::HashMap;
use std::time::{Duration, SystemTime};

use serde_json::{Value, json};

use crate::reply::Reply;
use crate::request::RecordedRequest;

/// The path of the stand-in's GigaChat token endpoint.
pub const GIGACHAT_OAUTH_PATH: &str = "/api/v2/oauth";

/// A service whose checks the stand-in applies before it serves the script.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Service {
    /// Yandex AI Studio: every request needs `Authorization: Api-Key <api_key>` (else `401`),
    /// `x-folder-id: <folder_id>` (missing: `400`; another folder: `403`), and a model URI
    /// `gpt://<folder_id>/…` (not a model URI: `400`; another folder: `403`), in chat
    /// completions (`model`) and the Responses API alike.
    Yandex {
        /// The service account's API key.
        api_key: String,
        /// The folder the key belongs to.
        folder_id: String,
    },
    /// GigaChat: `POST /api/v2/oauth` exchanges `Authorization: Basic <authorization_key>`
    /// (else `401`), a uuid4 `RqUID` (else `400`) and the form body `scope=<scope>` (else
    /// `400`) for a token valid for `token_lifetime` (unless a token script given to
    /// [`crate::StandIn::start_as_with_token_script`] answers first); every other request needs `Authorization:
    /// Bearer <token>` with a token issued here and not expired (else `401`). A
    /// `response_format` of type `json_schema` must carry `schema` directly (else `422`).
    GigaChat {
        /// The «ключ авторизации».
        authorization_key: String,
        /// The scope the key is for, such as `GIGACHAT_API_PERS`.
        scope: String,
        /// How long an issued token is valid.
        token_lifetime: Duration,
    },
}

/// The tokens a GigaChat stand-in issued, and how many exchanges it made.
#[derive(Debug, Default)]
pub(crate) struct ServiceState {
    tokens: HashMap<String, SystemTime>,
    pub(crate) token_exchanges: usize,
    /// What every issued token starts with instead of `standin-gigachat-token-`, so that a
    /// canary test can look for a token no other string could contain.
    pub(crate) token_prefix: Option<String>,
}

impl ServiceState {
    /// Makes every token issued so far expire now.
    pub(crate) fn expire_tokens(&mut self) {
        let now = SystemTime::now();
        for expiry in self.tokens.values_mut() {
            *expiry = now;
        }
    }
}

impl Service {
    /// The answer the service gives on its own, or `None` when the request passes its checks
    /// and the script answers.
    pub(crate) fn answer(
        &self,
        request: &RecordedRequest,
        state: &mut ServiceState,
    ) -> Option<Reply> {
        match self {
            Service::Yandex { api_key, folder_id } => yandex(request, api_key, folder_id),
            Service::GigaChat {
                authorization_key,
                scope,
                token_lifetime,
            } => {
                if request.path == GIGACHAT_OAUTH_PATH {
                    Some(gigachat_token(
                        request,
                        authorization_key,
                        scope,
                        *token_lifetime,
                        state,
                    ))
                } else {
                    gigachat_api(request, state)
                }
            }
        }
    }
}

fn yandex_error(status: u16, message: &str) -> Reply {
    Reply::yandex_error(status, message)
}

fn yandex(request: &RecordedRequest, api_key: &str, folder_id: &str) -> Option<Reply> {
    let presented = request
        .header("authorization")
        .and_then(|value| value.strip_prefix("Api-Key "));
    if presented != Some(api_key) {
        return Some(yandex_error(401, "Unknown api key"));
    }
    let Some(folder) = request.header("x-folder-id") else {
        return Some(yandex_error(400, "x-folder-id header is required"));
    };
    if folder != folder_id {
        return Some(yandex_error(
            403,
            &format!("Permission denied to folder {folder}"),
        ));
    }
    // The model list (`GET /v1/models`, «listModels» in Yandex's OpenAI-compatible API) names
    // no model: with the key and folder accepted, the script answers it.
    if request.method == "GET" {
        return None;
    }
    let body = request.json();
    let model = body.get("model").and_then(Value::as_str).unwrap_or("");
    let Some(model_folder) = model
        .strip_prefix("gpt://")
        .and_then(|rest| rest.split('/').next())
        .filter(|folder| !folder.is_empty())
    else {
        return Some(yandex_error(
            400,
            &format!("Invalid model uri: {model:?}; expected gpt://<folder>/<model>"),
        ));
    };
    if model_folder != folder_id {
        return Some(yandex_error(
            403,
            &format!("Permission denied to the model's folder {model_folder}"),
        ));
    }
    None
}

fn gigachat_token(
    request: &RecordedRequest,
    authorization_key: &str,
    scope: &str,
    lifetime: Duration,
    state: &mut ServiceState,
) -> Reply {
    let basic = request
        .header("authorization")
        .and_then(|value| value.strip_prefix("Basic "));
    if basic != Some(authorization_key) {
        return Reply::json(
            401,
            json!({"code": 6, "message": "credentials doesn't match db data"}),
        );
    }
    if !request.header("rquid").is_some_and(is_uuid4) {
        return Reply::json(
            400,
            json!({"code": 5, "message": "RqUID header is invalid"}),
        );
    }
    let form = request
        .header("content-type")
        .is_some_and(|value| value.starts_with("application/x-www-form-urlencoded"));
    if !form || request.body != format!("scope={scope}") {
        return Reply::json(400, json!({"code": 7, "message": "scope is invalid"}));
    }
    state.token_exchanges += 1;
    let prefix = state
        .token_prefix
        .as_deref()
        .unwrap_or("standin-gigachat-token-");
    let token = format!("{prefix}{}", state.token_exchanges);
    let expires = SystemTime::now() + lifetime;
    state.tokens.insert(token.clone(), expires);
    let expires_at = expires
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |since| since.as_millis() as u64);
    Reply::json(
        200,
        json!({"access_token": token, "expires_at": expires_at}),
    )
}

fn gigachat_api(request: &RecordedRequest, state: &ServiceState) -> Option<Reply> {
    let token = request
        .header("authorization")
        .and_then(|value| value.strip_prefix("Bearer "));
    let valid = token
        .and_then(|token| state.tokens.get(token))
        .is_some_and(|expires| SystemTime::now() < *expires);
    if !valid {
        return Some(Reply::json(
            401,
            json!({"status": 401, "message": "Unauthorized"}),
        ));
    }
    let body = request.json();
    if let Some(format) = body.get("response_format")
        && format.get("type").and_then(Value::as_str) == Some("json_schema")
        && format.get("schema").is_none()
    {
        return Some(Reply::json(
            422,
            json!({"status": 422, "message": "response_format.schema is required"}),
        ));
    }
    None
}

/// `xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx` in hexadecimal digits of either case.
fn is_uuid4(value: &str) -> bool {
    let groups: Vec<&str> = value.split('-').collect();
    let lengths_match = groups.len() == 5
        && groups.iter().zip([8, 4, 4, 4, 12]).all(|(group, length)| {
            group.len() == length && group.bytes().all(|byte| byte.is_ascii_hexdigit())
        });
    lengths_match
        && groups[2].starts_with('4')
        && groups[3]
            .chars()
            .next()
            .is_some_and(|c| matches!(c.to_ascii_lowercase(), '8' | '9' | 'a' | 'b'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_version_4_uuids_pass() {
        assert!(is_uuid4("3f2b8c1e-9d4a-4e6b-a1c2-0123456789ab"));
        assert!(is_uuid4("3F2B8C1E-9D4A-4E6B-B1C2-0123456789AB"));
        assert!(!is_uuid4("3f2b8c1e-9d4a-1e6b-a1c2-0123456789ab"));
        assert!(!is_uuid4("3f2b8c1e-9d4a-4e6b-c1c2-0123456789ab"));
        assert!(!is_uuid4("3f2b8c1e9d4a4e6ba1c20123456789ab"));
        assert!(!is_uuid4("not-a-uuid"));
        assert!(!is_uuid4(""));
    }
}
