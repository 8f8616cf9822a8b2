//! A batch file read as `.csv`: format, encoding and delimiter detection, the header, every
//! row checked against the input contract.
#![no_main]

#[path = "common/batch.rs"]
mod batch;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| batch::check("строки.csv", data));
