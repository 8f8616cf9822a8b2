//! Keeping what the resident typed when a draft does not end ready, so that nothing is lost:
//! written atomically into a private folder, and a failure to keep it is reported, never
//! silent.

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The typed input could not be kept.
#[derive(Debug, thiserror::Error)]
#[error("не удалось сохранить ваш текст в папке {}: {}", .dir.display(), crate::paths::io_error_ru(.source))]
pub struct KeepError {
    /// The folder it was to go into.
    pub dir: PathBuf,
    /// What the operating system said.
    #[source]
    pub source: std::io::Error,
}

impl KeepError {
    /// What happened and what to do, in Russian.
    pub fn message_ru(&self) -> String {
        format!(
            "{}. Текст ниже — скопируйте его, чтобы не потерять, или освободите место и \
             проверьте права на папку.",
            self
        )
    }
}

/// Creates `dir` (and its parents) readable by the owner only, and makes an existing one so.
pub(crate) fn private_dir(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{DirBuilderExt as _, PermissionsExt as _};
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)?;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
    }
    #[cfg(not(unix))]
    {
        std::fs::create_dir_all(dir)
    }
}

/// Writes the input's JSON into `dir` as a new file and returns it. The file appears whole or
/// not at all: it is written to a temporary file in the same folder, flushed to disk, and then
/// renamed into place.
pub(crate) fn keep_input(dir: &Path, json: &str) -> Result<PathBuf, KeepError> {
    let fail = |source| KeepError {
        dir: dir.to_owned(),
        source,
    };
    private_dir(dir).map_err(fail)?;
    let mut file = tempfile::Builder::new()
        .prefix(".input-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(fail)?;
    file.write_all(json.as_bytes()).map_err(fail)?;
    file.write_all(b"\n").map_err(fail)?;
    file.as_file().sync_all().map_err(fail)?;
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    for suffix in 0..100 {
        let path = dir.join(format!("input-{stamp}-{suffix}.json"));
        match file.persist_noclobber(&path) {
            Ok(_) => return Ok(path),
            Err(error) if error.error.kind() == std::io::ErrorKind::AlreadyExists => {
                file = error.file;
            }
            Err(error) => return Err(fail(error.error)),
        }
    }
    Err(fail(std::io::Error::from(
        std::io::ErrorKind::AlreadyExists,
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_input_is_kept_whole_in_a_private_folder() {
        let home = tempfile::tempdir().unwrap();
        let dir = home.path().join("data/pending");
        let path = keep_input(&dir, "{\"description\": \"Свет не горит\"}").unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "{\"description\": \"Свет не горит\"}\n"
        );
        let second = keep_input(&dir, "{}").unwrap();
        assert_ne!(path, second);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(&dir).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o700);
        }
        // No temporary file is left behind.
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().all(|n| n.starts_with("input-")), "{names:?}");
    }

    #[test]
    fn a_folder_that_cannot_be_made_is_reported() {
        let home = tempfile::tempdir().unwrap();
        let blocker = home.path().join("data");
        std::fs::write(&blocker, "a file where the folder should be").unwrap();
        let error = keep_input(&blocker.join("pending"), "{}").unwrap_err();
        let message = error.message_ru();
        assert!(message.contains("не удалось сохранить"), "{message}");
        assert!(!message.contains(".."), "{message}");
    }
}
