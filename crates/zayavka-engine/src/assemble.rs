//! Offline assembly from a saved input and a saved model response (`zayavka assemble`).
//!
//! No connection is opened: the response is read from text, either as the model's JSON object
//! itself or as a whole chat-completions response body, whose envelope `zayavka-llm` parses.

use zayavka_core::{
    Failure, FailureReason, ModelReply, Outcome, ResidentInput, evaluate_reply, legal_catalogue,
    request_draft_schema,
};

/// Reads a saved model response: a chat-completions body (an object with `choices`, or a
/// provider's `error` object) goes through the adapter's envelope parser — an error body is a
/// technical failure, not model output; anything else is taken as the content the model
/// returned, to be validated like any other.
pub fn reply_from_response_text(text: &str) -> Result<ModelReply, Failure> {
    let is_envelope = serde_json::from_str::<serde_json::Value>(text)
        .ok()
        .is_some_and(|value| value.get("choices").is_some() || value.get("error").is_some());
    if !is_envelope {
        return Ok(ModelReply {
            content: Some(text.to_owned()),
            refusal: None,
            finish_reason: None,
        });
    }
    let completion = zayavka_llm::parse_chat_completion(text)
        .map_err(|error| Failure::new(FailureReason::InvalidResponse, false, error.to_string()))?;
    Ok(ModelReply {
        content: completion.content,
        refusal: completion.refusal,
        finish_reason: completion.finish_reason,
    })
}

/// Assembles a request from the texts of an input file and a response file.
pub fn assemble_from_texts(input_json: &str, response_text: &str) -> Outcome {
    let input = match ResidentInput::from_json_str(input_json) {
        Ok(input) => input,
        Err(errors) => return Outcome::InvalidInput(errors),
    };
    match reply_from_response_text(response_text) {
        Ok(reply) => evaluate_reply(&input, &reply, request_draft_schema(), legal_catalogue()),
        Err(failure) => Outcome::Failed(failure),
    }
}
