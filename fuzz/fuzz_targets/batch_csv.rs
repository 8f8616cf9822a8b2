//! A batch file read as `.csv`: format, encoding and delimiter detection, the header, every
//! row checked against the input contract.
#![no_main]

#[path = "../checks/batch.rs"]
mod batch;

libfuzzer_sys::fuzz_target!(|data: &[u8]| batch::check("строки.csv", data));
