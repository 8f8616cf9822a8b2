//! The configuration file (`config.toml`): parsed, and every profile it names resolved to
//! provider settings or a clear error.

use std::path::Path;

use zayavka_engine::Config;

/// Checks one input.
pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(config) = Config::parse(text, Path::new("config.toml")) {
        for name in config.profile_names() {
            let _ = config.profile_settings(&name);
        }
        let _ = config.key_profile();
    }
}
