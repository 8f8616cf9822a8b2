//! A batch file read as `.xlsx`: format, encoding and delimiter detection, the header, every
//! row checked against the input contract.
#![no_main]

use libfuzzer_sys::fuzz_target;
use zayavka_engine::batch::BatchFile;

fuzz_target!(|data: &[u8]| {
    match BatchFile::from_bytes("строки.xlsx", data) {
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
});
