//! The resident input contract and its normalisation, from structured input: five optional
//! fields as a front end hands them in. A parsed input is a fixed point: parsing its own raw
//! form again gives the same input.
#![no_main]

#[path = "../checks/input_contract.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::check(data));
