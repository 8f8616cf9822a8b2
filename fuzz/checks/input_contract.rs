//! The resident input contract and its normalisation, from structured input: five optional
//! fields as a front end hands them in. A parsed input is a fixed point: parsing its own raw
//! form again gives the same input.

use arbitrary::{Arbitrary, Unstructured};
use zayavka_core::{RawInput, ResidentInput};

#[derive(Debug, Arbitrary)]
struct Fields {
    description: Option<String>,
    location: Option<String>,
    consequences: Option<String>,
    desired_actions: Option<String>,
    confirmed_subject: Option<String>,
}

/// Checks one input. The bytes become the fields as libFuzzer's structured targets make them
/// (`arbitrary_take_rest`), so a seed means the same here and in the fuzz target.
pub fn check(data: &[u8]) {
    let Ok(fields) = Fields::arbitrary_take_rest(Unstructured::new(data)) else {
        return;
    };
    let raw = RawInput {
        description: fields.description,
        location: fields.location,
        consequences: fields.consequences,
        desired_actions: fields.desired_actions,
        confirmed_subject: fields.confirmed_subject,
    };
    match ResidentInput::parse(&raw) {
        Ok(input) => {
            let again = ResidentInput::parse(&input.to_raw()).expect("a parsed input parses again");
            assert_eq!(again, input, "normalisation is idempotent");
            let _ = input.notices();
            let _ = input.model_view();
        }
        Err(errors) => {
            for error in errors.iter() {
                assert!(!error.message_ru().is_empty());
                let _ = (error.code(), error.field_name(), error.position());
            }
        }
    }
}
