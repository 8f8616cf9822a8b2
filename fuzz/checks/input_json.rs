//! The resident input contract read from JSON text, as `zayavka draft --input FILE` and a
//! batch's JSONL rows read it: every problem reported, never a panic.

use zayavka_core::ResidentInput;

/// Checks one input.
pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = ResidentInput::refuse_duplicate_fields(text);
    match ResidentInput::from_json_str(text) {
        Ok(input) => {
            let _ = input.notices();
        }
        Err(errors) => {
            assert!(errors.total() >= errors.iter().count());
            for error in errors.iter() {
                assert!(!error.message_ru().is_empty());
            }
        }
    }
}
