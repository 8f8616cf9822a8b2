//! What the three batch targets hold, whatever the file's format: a batch file read from
//! `data` under `file_name` (its extension chooses the reader) either counts every row as valid
//! or invalid, or is refused with a Russian message.

use zayavka_engine::BatchFile;

/// Checks one batch file.
pub fn check(file_name: &str, data: &[u8]) {
    match BatchFile::from_bytes(file_name, data) {
        Ok(file) => {
            assert_eq!(file.valid_count() + file.invalid().len(), file.rows().len());
            let _ = (
                file.format(),
                file.encoding(),
                file.delimiter(),
                file.skipped_blank(),
            );
        }
        Err(error) => {
            assert!(!error.message_ru().is_empty());
            let _ = error.code();
        }
    }
}
