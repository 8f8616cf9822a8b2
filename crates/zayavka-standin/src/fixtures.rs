//! Model answers the tests of several crates share, so that one well-formed draft is written
//! once rather than copied into each test file.

use serde_json::{Value, json};

/// The resident's description the [`lighting_draft`] quotes verbatim as its evidence.
pub const LIGHTING_DESCRIPTION: &str =
    "В подъезде неделю не горит свет на лестнице между третьим и четвёртым этажами.";

/// A well-formed model answer (the draft object, before any envelope) for a lighting problem
/// whose evidence quotes [`LIGHTING_DESCRIPTION`]: with that description and the subject
/// confirmed, the core assembles a ready request with the lighting module.
pub fn lighting_draft() -> Value {
    json!({
        "outcome": "draft",
        "title": "Не работает освещение на лестнице",
        "problem": "На лестнице между третьим и четвёртым этажами неделю не горит свет",
        "circumstances": null,
        "impact": "В темноте на лестнице плохо видно ступени",
        "verification": "Причину нужно установить при осмотре",
        "subject": {"kind": "common_area_premises_lighting", "evidence": [
            {"source_field": "description", "quote": "неделю не горит свет на лестнице"}
        ]},
        "warnings": []
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_evidence_quotes_the_description_verbatim() {
        let quote = lighting_draft()["subject"]["evidence"][0]["quote"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(LIGHTING_DESCRIPTION.contains(&quote));
    }
}
