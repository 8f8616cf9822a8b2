//! Replay: the recorded response evaluated again, offline, against the recorded input.

use zayavka_core::{Outcome, ResidentInput, evaluate_reply, find_schema, legal_catalogue};

use super::record::ContextRecord;

/// A replayed draft.
#[derive(Debug, Clone)]
pub struct Replay {
    /// The outcome the recorded response leads to today.
    pub outcome: Outcome,
    /// Whether the legal catalogue is the one the draft was made with; if not, a legal
    /// paragraph may read differently from the recorded request.
    pub same_catalogue: bool,
    /// The catalogue version the draft was made with.
    pub recorded_catalogue_version: String,
    /// Today's catalogue version.
    pub current_catalogue_version: String,
}

/// Why a record cannot be replayed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReplayError {
    /// The record holds no model response (the call failed before one arrived).
    #[error("в записи нет ответа модели: запрос не дошёл до модели, повторять нечего")]
    NoResponse,
    /// The record names a schema this version of Zayavka does not know.
    #[error("запись сделана по схеме ответа версии {0}, которую эта версия программы не знает")]
    UnknownSchema(u32),
    /// The recorded input does not pass today's input contract.
    #[error("данные заявки в записи не проходят проверку: {0}")]
    InvalidInput(String),
    /// The record is of a newer format than this version reads.
    #[error(
        "запись сделана более новой версией программы (формат {0}); обновите программу, чтобы \
         её повторить"
    )]
    NewerFormat(u32),
}

/// A replay that cannot be done: the record holds nothing to evaluate again, or this version
/// cannot read it; nothing was sent or stored.
impl crate::error::EngineError for ReplayError {
    fn kind(&self) -> crate::error::ErrorKind {
        crate::error::ErrorKind::InvalidRequest
    }

    fn message_ru(&self) -> String {
        self.to_string()
    }
}

/// Replays a recorded draft offline: the last recorded response, evaluated again against the
/// recorded input. With the same schema and catalogue it reproduces the recorded request
/// byte for byte.
pub fn replay(record: &ContextRecord) -> Result<Replay, ReplayError> {
    if record.format_version > super::record::RECORD_FORMAT_VERSION {
        return Err(ReplayError::NewerFormat(record.format_version));
    }
    let input = ResidentInput::parse(&record.input).map_err(|errors| {
        let messages: Vec<String> = errors.iter().map(|e| e.message_ru()).collect();
        ReplayError::InvalidInput(messages.join(" "))
    })?;
    let catalogue = legal_catalogue();
    Ok(Replay {
        outcome: reevaluate(record, &input)?,
        same_catalogue: catalogue.version() == record.legal_catalogue_version,
        recorded_catalogue_version: record.legal_catalogue_version.clone(),
        current_catalogue_version: catalogue.version().to_owned(),
    })
}

/// The recorded response evaluated again against another input, with the schema the record
/// names and today's legal catalogue: how a draft is assembled again once the resident has
/// confirmed what the problem concerns, with no new model call.
pub fn reevaluate(record: &ContextRecord, input: &ResidentInput) -> Result<Outcome, ReplayError> {
    if record.format_version > super::record::RECORD_FORMAT_VERSION {
        return Err(ReplayError::NewerFormat(record.format_version));
    }
    let schema = find_schema("request_draft", record.schema_version)
        .ok_or(ReplayError::UnknownSchema(record.schema_version))?;
    let response = record.responses.last().ok_or(ReplayError::NoResponse)?;
    Ok(evaluate_reply(
        input,
        &response.reply,
        schema,
        legal_catalogue(),
    ))
}
