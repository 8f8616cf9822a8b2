//! The model clients of one session of a front end (the desktop app's run), so that drafts and
//! batches sent one after another reuse one HTTP client per service: its connection pool and,
//! for GigaChat, its access token. A resident drafting ten requests in an afternoon then makes
//! one token exchange per token lifetime, not one per request (issue 15).
//!
//! A client is reused only for exactly the same provider settings and the same key; a changed
//! profile, address, model or key gets a client of its own. The key is compared in memory and
//! kept nowhere else.

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

use zayavka_llm::Client;

use super::model::{ModelSettings, shared_client};
use crate::config::ProviderSettings;

/// How many distinct services one session keeps a client for: a resident who tries a few in
/// Settings does not make the session hold every one of them.
const KEPT: usize = 4;

/// The clients of one session, shared by its clones.
#[derive(Clone, Default)]
pub struct SessionClients {
    kept: Arc<Mutex<Vec<Kept>>>,
}

struct Kept {
    provider: ProviderSettings,
    key: Option<zayavka_llm::ApiKey>,
    client: Client,
}

impl fmt::Debug for SessionClients {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        formatter
            .debug_struct("SessionClients")
            .field("clients", &kept.len())
            .finish()
    }
}

impl SessionClients {
    /// A session with no client yet.
    pub fn new() -> SessionClients {
        SessionClients::default()
    }

    /// The session's client for these settings, built on first use; `None` when the settings
    /// cannot make one (the draft then reports why, as without a session).
    pub(crate) fn client_for(&self, settings: &ModelSettings) -> Option<Client> {
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        let same_key = |key: &Option<zayavka_llm::ApiKey>| match (key, &settings.api_key) {
            (None, None) => true,
            (Some(kept), Some(given)) => kept.expose() == given.expose(),
            _ => false,
        };
        if let Some(position) = kept
            .iter()
            .position(|entry| entry.provider == settings.provider && same_key(&entry.key))
        {
            // The most recently used last, so the oldest is the one dropped.
            let entry = kept.remove(position);
            let client = entry.client.clone();
            kept.push(entry);
            return Some(client);
        }
        let client = shared_client(settings)?;
        if kept.len() >= KEPT {
            kept.remove(0);
        }
        kept.push(Kept {
            provider: settings.provider.clone(),
            key: settings.api_key.clone(),
            client: client.clone(),
        });
        Some(client)
    }

    /// How many clients the session holds.
    pub fn len(&self) -> usize {
        self.kept
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// Whether the session holds no client yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
