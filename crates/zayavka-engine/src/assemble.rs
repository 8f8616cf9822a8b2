//! Offline assembly from a saved input and a saved model response (`zayavka assemble`).
//!
//! No connection is opened: the response is read from text, either as the model's JSON object
//! itself or as a whole response body of any protocol the adapter speaks (chat completions,
//! GigaChat's variant of it, the Responses API), whose envelope `zayavka-llm` parses.

use zayavka_core::{
    Failure, FailureReason, ModelReply, Outcome, ResidentInput, evaluate_reply, legal_catalogue,
    request_draft_schema,
};

/// Reads a saved model response: a provider's body (an object with `choices`, a Responses API
/// object with `output`, `output_text` or `"object": "response"`, or a provider's `error`
/// object) goes through the adapter's envelope parser — an error body is a technical failure,
/// not model output; anything else is taken as the content the model returned, to be
/// validated like any other.
pub fn reply_from_response_text(text: &str) -> Result<ModelReply, Failure> {
    let is_envelope = serde_json::from_str::<serde_json::Value>(text)
        .ok()
        .is_some_and(|value| {
            ["choices", "error", "output", "output_text"]
                .iter()
                .any(|key| value.get(key).is_some())
                || value.get("object").and_then(serde_json::Value::as_str) == Some("response")
        });
    if !is_envelope {
        return Ok(ModelReply {
            content: Some(text.to_owned()),
            refusal: None,
            finish_reason: None,
        });
    }
    let completion = zayavka_llm::parse_completion(text)
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const CONTENT: &str = r#"{"outcome":"draft"}"#;

    /// Regression (issue 15): a saved Responses API body was taken as the model's own content
    /// and refused as a malformed draft; it is now read like a chat-completions body.
    #[test]
    fn every_protocols_body_is_read_through_its_envelope() {
        let chat = json!({"choices": [{"message": {"role": "assistant", "content": CONTENT},
                                       "finish_reason": "stop"}]});
        let gigachat = json!({"choices": [{"message": {"role": "assistant", "content": "",
            "function_call": {"name": "zayavka_draft", "arguments": {"outcome": "draft"}}},
            "finish_reason": "function_call"}]});
        let responses = json!({"object": "response", "status": "completed",
            "output": [{"type": "message", "role": "assistant",
                        "content": [{"type": "output_text", "text": CONTENT}]}]});
        let simplified = json!({"output_text": CONTENT, "status": "completed"});
        for body in [chat, gigachat, responses, simplified] {
            let reply = reply_from_response_text(&body.to_string()).unwrap();
            let content: serde_json::Value =
                serde_json::from_str(reply.content.as_deref().unwrap()).unwrap();
            assert_eq!(content, json!({"outcome": "draft"}), "{body}");
        }
    }

    #[test]
    fn a_cut_responses_body_is_a_truncation_and_an_error_body_a_failure() {
        let incomplete = json!({"object": "response", "status": "incomplete",
            "incomplete_details": {"reason": "max_output_tokens"},
            "output": [{"type": "message", "role": "assistant",
                        "content": [{"type": "output_text", "text": "{\"outcome\""}]}]});
        let reply = reply_from_response_text(&incomplete.to_string()).unwrap();
        assert_eq!(reply.finish_reason.as_deref(), Some("length"));
        let error = json!({"error": {"message": "quota", "type": "insufficient_quota"}});
        let failure = reply_from_response_text(&error.to_string()).unwrap_err();
        assert_eq!(failure.reason, FailureReason::InvalidResponse);
    }

    #[test]
    fn the_models_own_object_is_content() {
        let reply = reply_from_response_text(CONTENT).unwrap();
        assert_eq!(reply.content.as_deref(), Some(CONTENT));
    }
}
