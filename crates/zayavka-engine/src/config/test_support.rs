//! Helpers shared by the unit tests of the `config` submodules: a fixed configuration path that
//! error messages can be checked against, parsing text as if it came from that path, and a
//! shorthand for a valid profile name.

use std::path::PathBuf;

use super::{Config, ConfigError, ProfileName};

pub(super) fn path() -> PathBuf {
    PathBuf::from("/home/resident/.config/zayavka/config.toml")
}

pub(super) fn parse(text: &str) -> Result<Config, ConfigError> {
    Config::parse(text, &path())
}

pub(super) fn name(text: &str) -> ProfileName {
    ProfileName::parse(text).unwrap()
}
