//! The provider's API key: kept in the operating system's keyring, overridable by `ZAYAVKA_API_KEY`.
//!
//! The key is held in an [`ApiKey`], whose `Debug` output is `[redacted]` and which has no
//! `Display`, so formatting a value that contains it (an error, a log line, a `dbg!`) cannot reveal
//! it. Error messages never include the key either: they are built from fixed Russian text and the
//! keyring's own failure description, which carries no secret.
//!
//! Where the key lives:
//!
//! - Windows: the Credential Manager; macOS: the login Keychain.
//! - Linux and the BSDs: the Secret Service (GNOME Keyring, KWallet, KeePassXC) over D-Bus. The
//!   kernel keyring is deliberately not used: outside a login session it reports «no entry» instead
//!   of an error, and it forgets keys on reboot.
//! - Nowhere else. When no keyring is reachable (no D-Bus session, no Secret Service daemon),
//!   [`SecretError::KeyringUnavailable`] says so and points to `ZAYAVKA_API_KEY`; there is no
//!   plaintext fallback file.
//!
//! Entries use the service name `zayavka` and the profile name as the user name, so each provider
//! profile has its own key.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fmt;
use std::sync::Mutex;

use crate::config::ProfileName;
use zayavka_codes::stable_codes;

/// The environment variable whose key takes precedence over the keyring, for servers and CI.
pub const ENV_API_KEY: &str = "ZAYAVKA_API_KEY";

/// The keyring service name under which Zayavka stores its keys.
pub const KEYRING_SERVICE: &str = "zayavka";

/// The longest key accepted; real keys are well under 300 characters.
pub const MAX_API_KEY_CHARS: usize = 4096;

/// An API key. It can only be read through [`ApiKey::expose`], and its `Debug` output is
/// `[redacted]`.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    /// Checks a key as typed or pasted: surrounding whitespace is dropped, and an empty key or one
    /// with anything but visible ASCII characters is refused. Such characters are always a pasting
    /// accident (a line break, a space inside, Cyrillic from the wrong keyboard layout), and they
    /// would also be unusable in an `Authorization` header.
    pub fn new(text: &str) -> Result<ApiKey, SecretError> {
        let key = text.trim();
        if key.is_empty() {
            return Err(SecretError::EmptyKey);
        }
        if key.chars().count() > MAX_API_KEY_CHARS || !key.chars().all(|c| c.is_ascii_graphic()) {
            return Err(SecretError::MalformedKey);
        }
        Ok(ApiKey(key.to_owned()))
    }

    /// The key itself, for the one place that puts it into a request header.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// The same key as the adapter's type, which is what goes on the wire.
    pub fn to_transport(&self) -> zayavka_llm::ApiKey {
        zayavka_llm::ApiKey::new(self.0.clone())
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

/// Where the key in use came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ApiKeySource {
    /// The `ZAYAVKA_API_KEY` environment variable.
    Environment,
    /// The operating system's keyring.
    Keyring,
}

/// The rule for a profile that does not require a key (`needs_api_key = false`, such as a local
/// server), in the words every front end shows: a key is sent when one is stored or given by
/// `ZAYAVKA_API_KEY`, and only then (issue 14). `source` is where the key in use comes from,
/// if anywhere; `keyring_unavailable` says that the keyring could not be asked.
pub fn optional_key_ru(source: Option<ApiKeySource>, keyring_unavailable: bool) -> String {
    const RULE: &str = "Ключ не обязателен: если он сохранён, он отправляется серверу.";
    let now = match (source, keyring_unavailable) {
        (Some(ApiKeySource::Keyring), _) => {
            "Сейчас ключ сохранён и отправляется с каждым запросом; чтобы запросы шли без \
             ключа, удалите его."
                .to_owned()
        }
        (Some(ApiKeySource::Environment), _) => format!(
            "Сейчас ключ задан переменной окружения {ENV_API_KEY} и отправляется с каждым \
             запросом."
        ),
        (None, false) => "Сейчас ключа нет, и запросы идут без него.".to_owned(),
        (None, true) => {
            "Хранилище ключей сейчас недоступно, поэтому запросы идут без ключа.".to_owned()
        }
    };
    format!("{RULE} {now}")
}

/// Somewhere API keys can be kept, one per profile.
pub trait SecretStore {
    /// The key stored for `profile`, or `None` when there is none.
    fn get(&self, profile: &ProfileName) -> Result<Option<ApiKey>, SecretError>;
    /// Stores `key` for `profile`, replacing any earlier key.
    fn set(&self, profile: &ProfileName, key: &ApiKey) -> Result<(), SecretError>;
    /// Removes the key of `profile`; `false` when there was none.
    fn delete(&self, profile: &ProfileName) -> Result<bool, SecretError>;
    /// A human name for where keys are kept, e.g. `Secret Service`.
    fn backend_name(&self) -> &'static str;
}

/// The operating system's keyring, through the `keyring` crate.
#[derive(Debug, Clone)]
pub struct KeyringStore {
    service: String,
}

impl KeyringStore {
    /// The store Zayavka uses: service name [`KEYRING_SERVICE`].
    pub fn new() -> KeyringStore {
        KeyringStore::with_service(KEYRING_SERVICE)
    }

    /// A store under another service name, so tests never touch the resident's real keys.
    pub fn with_service(service: &str) -> KeyringStore {
        KeyringStore {
            service: service.to_owned(),
        }
    }

    fn entry(&self, profile: &ProfileName) -> Result<keyring::Entry, SecretError> {
        // On the Unix desktops the Secret Service credential is built explicitly rather than through
        // `Entry::new`: the latter picks whichever backend the crate's features made the default,
        // and a `linux-native*` feature enabled anywhere in the dependency graph would silently
        // switch it to the kernel keyring.
        #[cfg(any(target_os = "linux", target_os = "freebsd", target_os = "openbsd"))]
        {
            let credential = keyring::secret_service::SsCredential::new_with_target(
                None,
                &self.service,
                profile.as_str(),
            )
            .map_err(|error| self.error(error, profile))?;
            Ok(keyring::Entry::new_with_credential(Box::new(credential)))
        }
        #[cfg(not(any(target_os = "linux", target_os = "freebsd", target_os = "openbsd")))]
        {
            keyring::Entry::new(&self.service, profile.as_str())
                .map_err(|error| self.error(error, profile))
        }
    }

    fn error(&self, error: keyring::Error, profile: &ProfileName) -> SecretError {
        keyring_error(error, self.backend_name(), profile)
    }
}

impl Default for KeyringStore {
    fn default() -> Self {
        KeyringStore::new()
    }
}

impl SecretStore for KeyringStore {
    fn get(&self, profile: &ProfileName) -> Result<Option<ApiKey>, SecretError> {
        match self.entry(profile)?.get_password() {
            Ok(text) => {
                ApiKey::new(&text)
                    .map(Some)
                    .map_err(|_| SecretError::StoredKeyUnreadable {
                        profile: profile.clone(),
                    })
            }
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(error) => Err(self.error(error, profile)),
        }
    }

    fn set(&self, profile: &ProfileName, key: &ApiKey) -> Result<(), SecretError> {
        self.entry(profile)?
            .set_password(key.expose())
            .map_err(|error| self.error(error, profile))
    }

    fn delete(&self, profile: &ProfileName) -> Result<bool, SecretError> {
        match self.entry(profile)?.delete_credential() {
            Ok(()) => Ok(true),
            Err(keyring::Error::NoEntry) => Ok(false),
            Err(error) => Err(self.error(error, profile)),
        }
    }

    fn backend_name(&self) -> &'static str {
        if cfg!(target_os = "macos") {
            "macOS Keychain"
        } else if cfg!(target_os = "windows") {
            "Windows Credential Manager"
        } else {
            "Secret Service"
        }
    }
}

/// Translates a `keyring` error without ever formatting the parts that may hold secret bytes.
fn keyring_error(
    error: keyring::Error,
    backend: &'static str,
    profile: &ProfileName,
) -> SecretError {
    match error {
        // A failure to reach the platform store: on Linux no D-Bus session bus, or no daemon that
        // owns `org.freedesktop.secrets`.
        keyring::Error::PlatformFailure(inner) => SecretError::KeyringUnavailable {
            backend,
            detail: inner.to_string(),
        },
        keyring::Error::NoStorageAccess(inner) => SecretError::KeyringLocked {
            backend,
            detail: inner.to_string(),
        },
        // `BadEncoding` carries the stored bytes, which is exactly what must not be printed.
        keyring::Error::BadEncoding(_) => SecretError::StoredKeyUnreadable {
            profile: profile.clone(),
        },
        keyring::Error::Ambiguous(_) => SecretError::KeyringFailed {
            backend,
            detail: "в хранилище несколько записей для этого профиля".to_owned(),
        },
        keyring::Error::TooLong(attribute, _) | keyring::Error::Invalid(attribute, _) => {
            SecretError::KeyringFailed {
                backend,
                detail: format!("хранилище не приняло атрибут «{attribute}»"),
            }
        }
        keyring::Error::NoEntry => SecretError::KeyringFailed {
            backend,
            detail: "запись не найдена".to_owned(),
        },
        _ => SecretError::KeyringFailed {
            backend,
            detail: "неизвестная ошибка хранилища".to_owned(),
        },
    }
}

/// Keys in memory, for tests; optionally failing every call as an unreachable keyring would.
#[derive(Debug, Default)]
pub struct MemoryStore {
    keys: Mutex<BTreeMap<ProfileName, ApiKey>>,
    unavailable: bool,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }

    /// A store that answers every call with [`SecretError::KeyringUnavailable`].
    pub fn unavailable() -> MemoryStore {
        MemoryStore {
            unavailable: true,
            ..MemoryStore::default()
        }
    }

    fn check_available(&self) -> Result<(), SecretError> {
        if self.unavailable {
            return Err(SecretError::KeyringUnavailable {
                backend: self.backend_name(),
                detail: "хранилище отключено для проверки".to_owned(),
            });
        }
        Ok(())
    }

    fn keys(&self) -> std::sync::MutexGuard<'_, BTreeMap<ProfileName, ApiKey>> {
        // A panic in another test thread cannot leave the map half-written, so a poisoned lock is
        // still safe to use.
        self.keys
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl SecretStore for MemoryStore {
    fn get(&self, profile: &ProfileName) -> Result<Option<ApiKey>, SecretError> {
        self.check_available()?;
        Ok(self.keys().get(profile).cloned())
    }

    fn set(&self, profile: &ProfileName, key: &ApiKey) -> Result<(), SecretError> {
        self.check_available()?;
        self.keys().insert(profile.clone(), key.clone());
        Ok(())
    }

    fn delete(&self, profile: &ProfileName) -> Result<bool, SecretError> {
        self.check_available()?;
        Ok(self.keys().remove(profile).is_some())
    }

    fn backend_name(&self) -> &'static str {
        "memory"
    }
}

/// Reads `ZAYAVKA_API_KEY` from the process environment.
pub fn api_key_from_env() -> Result<Option<ApiKey>, SecretError> {
    parse_environment_key(std::env::var_os(ENV_API_KEY))
}

/// Checks a value of `ZAYAVKA_API_KEY`; the testable half of [`api_key_from_env`]. An unset or
/// blank variable means no override.
pub fn parse_environment_key(value: Option<OsString>) -> Result<Option<ApiKey>, SecretError> {
    let Some(value) = value else {
        return Ok(None);
    };
    let text = value
        .into_string()
        .map_err(|_| SecretError::InvalidEnvironmentKey)?;
    if text.trim().is_empty() {
        return Ok(None);
    }
    ApiKey::new(&text)
        .map(Some)
        .map_err(|_| SecretError::InvalidEnvironmentKey)
}

/// The key to use for `profile`: the environment's when given, else the keyring's.
///
/// With an environment key the store is not consulted at all, so a server without any keyring
/// works. `Ok(None)` means no key anywhere; whether that is a problem depends on the profile's
/// `needs_api_key`.
pub fn resolve_api_key(
    store: &dyn SecretStore,
    profile: &ProfileName,
    environment_key: Option<ApiKey>,
) -> Result<Option<(ApiKeySource, ApiKey)>, SecretError> {
    if let Some(key) = environment_key {
        return Ok(Some((ApiKeySource::Environment, key)));
    }
    Ok(store.get(profile)?.map(|key| (ApiKeySource::Keyring, key)))
}

/// What `zayavka key status` and the settings screen say about one profile's key.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct KeyStatus {
    /// The profile asked about.
    pub profile: ProfileName,
    /// Where keys are stored, e.g. `Secret Service`.
    pub backend: &'static str,
    /// Whether the keyring holds a key for the profile.
    pub stored: StoredKeyState,
    /// Whether `ZAYAVKA_API_KEY` is set, in which case it is used instead of the stored key.
    pub environment_override: bool,
}

/// Whether the keyring holds a key for a profile.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum StoredKeyState {
    /// A key is stored.
    Present,
    /// No key is stored.
    Absent,
    /// The keyring could not be asked.
    Unreachable {
        /// The error's stable code.
        code: SecretErrorCode,
        /// The error's Russian message.
        message: String,
    },
}

impl KeyStatus {
    /// Where the key a call would use comes from, or `None` when there is none.
    pub fn usable_source(&self) -> Option<ApiKeySource> {
        if self.environment_override {
            Some(ApiKeySource::Environment)
        } else if self.stored == StoredKeyState::Present {
            Some(ApiKeySource::Keyring)
        } else {
            None
        }
    }
}

/// Asks the store whether `profile` has a key, without reading the key into the caller's hands.
/// A keyring failure is part of the answer rather than an error, because the environment override
/// may still make a key available.
pub fn key_status(
    store: &dyn SecretStore,
    profile: &ProfileName,
    environment_override: bool,
) -> KeyStatus {
    let stored = match store.get(profile) {
        Ok(Some(_)) => StoredKeyState::Present,
        Ok(None) => StoredKeyState::Absent,
        Err(error) => StoredKeyState::Unreachable {
            code: error.code(),
            message: error.message_ru(),
        },
    };
    KeyStatus {
        profile: profile.clone(),
        backend: store.backend_name(),
        stored,
        environment_override,
    }
}

/// Why a key could not be read, stored or accepted. No variant holds the key.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SecretError {
    /// No keyring service could be reached: on Linux no D-Bus session or no Secret Service daemon.
    #[error("{}", self.message_ru())]
    KeyringUnavailable {
        /// Where keys would be stored.
        backend: &'static str,
        /// The keyring's own description of the failure.
        detail: String,
    },
    /// The keyring answered but is locked, or wanted a confirmation that could not be shown.
    #[error("{}", self.message_ru())]
    KeyringLocked {
        /// Where keys are stored.
        backend: &'static str,
        /// The keyring's own description of the failure.
        detail: String,
    },
    /// The keyring answered with another error.
    #[error("{}", self.message_ru())]
    KeyringFailed {
        /// Where keys are stored.
        backend: &'static str,
        /// What went wrong, in Russian.
        detail: String,
    },
    /// The keyring holds something for the profile that is not a usable key.
    #[error("{}", self.message_ru())]
    StoredKeyUnreadable {
        /// The profile whose entry is unusable.
        profile: ProfileName,
    },
    /// The key given was empty.
    #[error("{}", self.message_ru())]
    EmptyKey,
    /// The key given has spaces, line breaks, non-Latin letters or is absurdly long.
    #[error("{}", self.message_ru())]
    MalformedKey,
    /// `ZAYAVKA_API_KEY` is set to something that is not a usable key.
    #[error("{}", self.message_ru())]
    InvalidEnvironmentKey,
}

stable_codes! {
    /// The stable code of a [`SecretError`], under the `secrets.` prefix.
    pub enum SecretErrorCode {
        /// `secrets.keyring_unavailable`.
        KeyringUnavailable => "secrets.keyring_unavailable",
        /// `secrets.keyring_locked`.
        KeyringLocked => "secrets.keyring_locked",
        /// `secrets.keyring_failed`.
        KeyringFailed => "secrets.keyring_failed",
        /// `secrets.stored_key_unreadable`.
        StoredKeyUnreadable => "secrets.stored_key_unreadable",
        /// `secrets.empty_key`.
        EmptyKey => "secrets.empty_key",
        /// `secrets.malformed_key`.
        MalformedKey => "secrets.malformed_key",
        /// `secrets.invalid_environment_key`.
        InvalidEnvironmentKey => "secrets.invalid_environment_key",
    }
}

impl SecretError {
    /// A stable machine-readable code for this error.
    pub fn code(&self) -> SecretErrorCode {
        match self {
            SecretError::KeyringUnavailable { .. } => SecretErrorCode::KeyringUnavailable,
            SecretError::KeyringLocked { .. } => SecretErrorCode::KeyringLocked,
            SecretError::KeyringFailed { .. } => SecretErrorCode::KeyringFailed,
            SecretError::StoredKeyUnreadable { .. } => SecretErrorCode::StoredKeyUnreadable,
            SecretError::EmptyKey => SecretErrorCode::EmptyKey,
            SecretError::MalformedKey => SecretErrorCode::MalformedKey,
            SecretError::InvalidEnvironmentKey => SecretErrorCode::InvalidEnvironmentKey,
        }
    }

    /// What the resident can do about it; each front end words it.
    pub fn next_step(&self) -> Option<zayavka_core::NextStep> {
        match self {
            SecretError::StoredKeyUnreadable { .. }
            | SecretError::EmptyKey
            | SecretError::MalformedKey => Some(zayavka_core::NextStep::StoreApiKey),
            SecretError::KeyringUnavailable { .. }
            | SecretError::KeyringLocked { .. }
            | SecretError::KeyringFailed { .. }
            | SecretError::InvalidEnvironmentKey => None,
        }
    }

    /// A Russian message for the resident that says what to do. It names no command.
    pub fn message_ru(&self) -> String {
        match self {
            SecretError::KeyringUnavailable { backend, detail } => format!(
                "Хранилище ключей операционной системы ({backend}) недоступно ({detail}). На Linux \
                 ключи хранятся в Secret Service — GNOME Keyring, KWallet или KeePassXC, — который \
                 работает в сеансе рабочего стола. На сервере или в CI передайте ключ в переменной \
                 окружения {ENV_API_KEY}. В открытом файле ключ не сохраняется."
            ),
            SecretError::KeyringLocked { backend, detail } => format!(
                "Хранилище ключей ({backend}) заблокировано или запросило подтверждение, которое \
                 не удалось показать ({detail}). Разблокируйте связку ключей, например войдя в \
                 сеанс рабочего стола, и повторите, или передайте ключ в переменной окружения \
                 {ENV_API_KEY}."
            ),
            SecretError::KeyringFailed { backend, detail } => format!(
                "Хранилище ключей ({backend}) вернуло ошибку: {detail}. Повторите попытку; если \
                 не поможет, передайте ключ в переменной окружения {ENV_API_KEY}."
            ),
            SecretError::StoredKeyUnreadable { profile } => format!(
                "Запись профиля «{profile}» в хранилище ключей не похожа на API-ключ. Сохраните \
                 ключ для этого профиля заново."
            ),
            SecretError::EmptyKey => "Ключ пустой. Вставьте ключ целиком и повторите.".to_owned(),
            SecretError::MalformedKey => "Ключ содержит пробелы, переводы строки, русские буквы \
                 или слишком длинный, а API-ключ состоит только из латинских букв, цифр и знаков. \
                 Скопируйте ключ заново, без лишнего текста."
                .to_owned(),
            SecretError::InvalidEnvironmentKey => format!(
                "В переменной окружения {ENV_API_KEY} не API-ключ: в нём пробелы, переводы строки \
                 или русские буквы. Исправьте значение или удалите переменную."
            ),
        }
    }
}

impl crate::error::EngineError for SecretError {
    fn kind(&self) -> crate::error::ErrorKind {
        crate::error::ErrorKind::Key
    }

    fn message_ru(&self) -> String {
        SecretError::message_ru(self)
    }

    fn next_step(&self) -> Option<zayavka_core::NextStep> {
        SecretError::next_step(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "sk-test-0123456789abcdefghij";

    fn profile(name: &str) -> ProfileName {
        ProfileName::parse(name).unwrap()
    }

    fn key(text: &str) -> ApiKey {
        ApiKey::new(text).unwrap()
    }

    #[test]
    fn debug_output_never_shows_the_key() {
        let api_key = key(SECRET);
        assert_eq!(format!("{api_key:?}"), "[redacted]");
        let resolved = Some((ApiKeySource::Keyring, api_key.clone()));
        assert!(!format!("{resolved:?}").contains(SECRET));
        assert!(!format!("{resolved:#?}").contains(SECRET));
        assert_eq!(api_key.expose(), SECRET);
    }

    #[test]
    fn keys_are_trimmed_and_checked() {
        assert_eq!(key(&format!("  {SECRET}\n")).expose(), SECRET);
        assert!(matches!(ApiKey::new(""), Err(SecretError::EmptyKey)));
        assert!(matches!(ApiKey::new(" \n"), Err(SecretError::EmptyKey)));
        for bad in ["sk-a b", "sk-ключ", "sk-a\tb", "Bearer sk-a"] {
            assert!(
                matches!(ApiKey::new(bad), Err(SecretError::MalformedKey)),
                "{bad}"
            );
        }
        assert!(ApiKey::new(&"k".repeat(MAX_API_KEY_CHARS + 1)).is_err());
    }

    #[test]
    fn the_environment_key_wins_and_the_store_is_not_asked() {
        // An unreachable store proves it was not consulted.
        let store = MemoryStore::unavailable();
        let resolved = resolve_api_key(&store, &profile("openai"), Some(key("sk-env"))).unwrap();
        let (source, api_key) = resolved.unwrap();
        assert_eq!(source, ApiKeySource::Environment);
        assert_eq!(api_key.expose(), "sk-env");
    }

    #[test]
    fn the_keyring_key_is_used_without_an_environment_key() {
        let store = MemoryStore::new();
        store.set(&profile("openai"), &key("sk-stored")).unwrap();
        let (source, api_key) = resolve_api_key(&store, &profile("openai"), None)
            .unwrap()
            .unwrap();
        assert_eq!(source, ApiKeySource::Keyring);
        assert_eq!(api_key.expose(), "sk-stored");

        let environment = resolve_api_key(&store, &profile("openai"), Some(key("sk-env")))
            .unwrap()
            .unwrap();
        assert_eq!(environment.0, ApiKeySource::Environment);
        assert_eq!(environment.1.expose(), "sk-env");
    }

    #[test]
    fn keys_are_per_profile_and_missing_keys_are_none() {
        let store = MemoryStore::new();
        store.set(&profile("openai"), &key("sk-one")).unwrap();
        assert_eq!(
            resolve_api_key(&store, &profile("openrouter"), None).unwrap(),
            None
        );
        assert!(store.delete(&profile("openai")).unwrap());
        assert!(!store.delete(&profile("openai")).unwrap());
        assert_eq!(store.get(&profile("openai")).unwrap(), None);
    }

    #[test]
    fn an_unreachable_keyring_without_an_environment_key_is_an_error() {
        let error =
            resolve_api_key(&MemoryStore::unavailable(), &profile("openai"), None).unwrap_err();
        assert_eq!(error.code(), "secrets.keyring_unavailable");
        assert!(error.message_ru().contains(ENV_API_KEY));
    }

    #[test]
    fn environment_values_are_checked() {
        assert_eq!(parse_environment_key(None).unwrap(), None);
        assert_eq!(parse_environment_key(Some("  ".into())).unwrap(), None);
        assert_eq!(
            parse_environment_key(Some(format!("{SECRET}\n").into()))
                .unwrap()
                .unwrap()
                .expose(),
            SECRET
        );
        let error = parse_environment_key(Some("sk-a b".into())).unwrap_err();
        assert_eq!(error.code(), "secrets.invalid_environment_key");
        assert!(!error.message_ru().contains("sk-a"));
    }

    #[test]
    fn status_reports_presence_and_the_override_without_the_key() {
        let store = MemoryStore::new();
        store.set(&profile("openai"), &key(SECRET)).unwrap();
        let status = key_status(&store, &profile("openai"), true);
        assert_eq!(status.stored, StoredKeyState::Present);
        assert_eq!(status.usable_source(), Some(ApiKeySource::Environment));
        let json = serde_json::to_string(&status).unwrap();
        assert!(!json.contains(SECRET));
        assert_eq!(
            json,
            r#"{"profile":"openai","backend":"memory","stored":{"state":"present"},"environment_override":true}"#
        );

        let status = key_status(&store, &profile("ollama"), false);
        assert_eq!(status.stored, StoredKeyState::Absent);
        assert_eq!(status.usable_source(), None);

        let status = key_status(&MemoryStore::unavailable(), &profile("openai"), true);
        assert!(matches!(
            status.stored,
            StoredKeyState::Unreachable {
                code: SecretErrorCode::KeyringUnavailable,
                ..
            }
        ));
        assert_eq!(status.usable_source(), Some(ApiKeySource::Environment));
    }

    #[test]
    fn keyring_errors_are_classified_without_the_stored_bytes() {
        let openai = profile("openai");
        let unavailable = keyring_error(
            keyring::Error::PlatformFailure("no D-Bus session".into()),
            "Secret Service",
            &openai,
        );
        assert_eq!(unavailable.code(), "secrets.keyring_unavailable");
        assert!(unavailable.message_ru().contains("no D-Bus session"));
        assert!(unavailable.message_ru().contains(ENV_API_KEY));
        assert!(
            unavailable
                .message_ru()
                .contains("В открытом файле ключ не сохраняется")
        );

        let locked = keyring_error(
            keyring::Error::NoStorageAccess("locked".into()),
            "Secret Service",
            &openai,
        );
        assert_eq!(locked.code(), "secrets.keyring_locked");

        let bad_encoding = keyring_error(
            keyring::Error::BadEncoding(SECRET.as_bytes().to_vec()),
            "Secret Service",
            &openai,
        );
        assert_eq!(bad_encoding.code(), "secrets.stored_key_unreadable");
        assert!(!format!("{bad_encoding:?}").contains("115, 107")); // The bytes of "sk".
        assert!(!bad_encoding.message_ru().contains(SECRET));
    }

    #[test]
    fn no_error_message_or_debug_output_contains_the_key() {
        let errors = [
            SecretError::KeyringUnavailable {
                backend: "memory",
                detail: "x".to_owned(),
            },
            SecretError::KeyringLocked {
                backend: "memory",
                detail: "x".to_owned(),
            },
            SecretError::KeyringFailed {
                backend: "memory",
                detail: "x".to_owned(),
            },
            SecretError::StoredKeyUnreadable {
                profile: profile("openai"),
            },
            SecretError::EmptyKey,
            SecretError::MalformedKey,
            SecretError::InvalidEnvironmentKey,
        ];
        let mut codes: Vec<&str> = errors.iter().map(|error| error.code().code()).collect();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), errors.len());
        for error in &errors {
            assert_eq!(error.to_string(), error.message_ru());
            assert!(!error.to_string().contains(SECRET));
            assert!(!format!("{error:?}").contains(SECRET));
        }
        // The errors produced from bad input do not echo it either.
        for input in [format!("{SECRET} extra"), format!("{SECRET}ключ")] {
            let error = ApiKey::new(&input).unwrap_err();
            assert!(!error.to_string().contains(SECRET));
            assert!(!format!("{error:?}").contains(SECRET));
        }
    }

    #[cfg(target_os = "linux")]
    const RUN_THROUGH_SCRIPT: &str = "Run the test suite inside a private D-Bus session with an \
        unlocked keyring: `crates/zayavka-engine/keyring-session.sh cargo nextest run -p \
        zayavka-engine --run-ignored all` (needs the packages gnome-keyring and dbus-daemon), or \
        `bash scripts/test.sh`, which does so.";

    /// Round trip through the real Secret Service: set, get, status, overwrite, delete, get.
    /// Ignored outside the throw-away keyring session, so a plain `cargo test` lists it as
    /// skipped rather than passing it without a keyring; `scripts/test.sh` runs it there.
    #[cfg(target_os = "linux")]
    #[test]
    #[ignore = "the real OS keyring: runs in the throw-away keyring session of scripts/test.sh"]
    fn keyring_store_round_trip_in_the_real_secret_service() {
        assert!(
            std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some(),
            "DBUS_SESSION_BUS_ADDRESS is not set, so no Secret Service can be reached. \
             {RUN_THROUGH_SCRIPT}"
        );
        // A service name of its own keeps the test away from the resident's real keys and from
        // parallel runs of the suite.
        let service = format!("zayavka-test-{}", std::process::id());
        let store = KeyringStore::with_service(&service);
        let work = profile("work");
        let other = profile("other");

        match store.get(&work) {
            Ok(None) => {}
            Ok(Some(_)) => panic!("a fresh test service already holds a key"),
            Err(error) => panic!(
                "the Secret Service did not answer ({}: {error}). {RUN_THROUGH_SCRIPT}",
                error.code()
            ),
        }
        store.set(&work, &key(SECRET)).unwrap();
        assert_eq!(store.get(&work).unwrap().unwrap().expose(), SECRET);
        assert_eq!(store.get(&other).unwrap(), None);

        let status = key_status(&store, &work, false);
        assert_eq!(status.stored, StoredKeyState::Present);
        assert_eq!(status.backend, "Secret Service");
        assert_eq!(status.usable_source(), Some(ApiKeySource::Keyring));
        let (source, found) = resolve_api_key(&store, &work, None).unwrap().unwrap();
        assert_eq!(source, ApiKeySource::Keyring);
        assert_eq!(found.expose(), SECRET);

        // Setting again replaces the key instead of adding a second, ambiguous entry.
        store.set(&work, &key("sk-replaced")).unwrap();
        assert_eq!(store.get(&work).unwrap().unwrap().expose(), "sk-replaced");

        assert!(store.delete(&work).unwrap());
        assert_eq!(store.get(&work).unwrap(), None);
        assert!(!store.delete(&work).unwrap());
        assert_eq!(
            key_status(&store, &work, false).stored,
            StoredKeyState::Absent
        );
    }

    /// Without a D-Bus session the store reports `KeyringUnavailable` rather than «no key». The
    /// check runs in a child process of this test binary, because the bus address is
    /// process-global and other tests must keep theirs.
    #[cfg(target_os = "linux")]
    #[test]
    fn keyring_store_without_a_session_bus_is_unavailable() {
        const CHILD_MARKER: &str = "ZAYAVKA_TEST_CHILD_WITHOUT_DBUS";
        if std::env::var_os(CHILD_MARKER).is_some() {
            let error = KeyringStore::with_service("zayavka-test-no-bus")
                .get(&profile("work"))
                .unwrap_err();
            assert_eq!(error.code(), "secrets.keyring_unavailable", "{error}");
            assert!(error.message_ru().contains(ENV_API_KEY));
            return;
        }
        let scratch = tempfile::tempdir().unwrap();
        let output = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "secrets::tests::keyring_store_without_a_session_bus_is_unavailable",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD_MARKER, "1")
            .env(
                "DBUS_SESSION_BUS_ADDRESS",
                format!("unix:path={}", scratch.path().join("no-bus").display()),
            )
            // Without a display, libdbus cannot autolaunch a bus behind the test's back.
            .env_remove("DISPLAY")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success() && stdout.contains("1 passed"),
            "child test failed:\n{stdout}\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}
