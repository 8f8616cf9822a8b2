//! What [`crate::Client::probe_schema_modes`] found out: which response formats a server takes.

use crate::attempt::Attempt;
use crate::error::LlmError;
use crate::mode::ResponseFormatKind;

/// The answer tokens a schema-mode probe allows: enough for a small object, few enough that a
/// slow local model answers quickly. A probe cut short by it still counts as accepted.
pub(crate) const SCHEMA_PROBE_MAX_TOKENS: u32 = 32;

/// The result of one probe per [`ResponseFormatKind`], in the order they were tried.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaModeReport {
    /// One entry per mode the protocol offers ([`crate::Protocol::schema_modes`]),
    /// `json_schema` first.
    pub probes: Vec<SchemaModeProbe>,
}

impl SchemaModeReport {
    /// The mode to configure: the first one the server accepted, the stricter first, or
    /// `None` when it accepted neither.
    pub fn recommended(&self) -> Option<ResponseFormatKind> {
        self.probes
            .iter()
            .find(|probe| probe.support == ModeSupport::Accepted)
            .map(|probe| probe.mode)
    }

    /// What the probe of `mode` found, if that mode was probed.
    pub fn support(&self, mode: ResponseFormatKind) -> Option<&ModeSupport> {
        self.probes
            .iter()
            .find(|probe| probe.mode == mode)
            .map(|probe| &probe.support)
    }
}

/// What the server did with one mode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaModeProbe {
    /// The mode that was sent.
    pub mode: ResponseFormatKind,
    /// Whether the server took it.
    pub support: ModeSupport,
    /// The one HTTP attempt, for the diagnostics; `None` when nothing was sent, because the
    /// probe was cancelled first.
    pub attempt: Option<Attempt>,
}

/// Whether a server takes a response format.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ModeSupport {
    /// A completion came back in this mode.
    Accepted,
    /// The server said it does not take this mode: always
    /// [`LlmError::SchemaModeUnsupported`].
    Refused(LlmError),
    /// The probe failed for another reason, which says nothing about the mode: the server
    /// was unreachable, refused the key, rejected the schema, or the probe was cancelled.
    Failed(LlmError),
}

impl ModeSupport {
    /// Every code [`ModeSupport::as_str`] returns, in declaration order.
    pub const CODES: [&'static str; 3] = ["accepted", "refused", "failed"];

    /// A stable snake_case code: `accepted`, `refused` or `failed`.
    pub fn as_str(&self) -> &'static str {
        match self {
            ModeSupport::Accepted => "accepted",
            ModeSupport::Refused(_) => "refused",
            ModeSupport::Failed(_) => "failed",
        }
    }

    /// The error behind a refusal or a failure.
    pub fn error(&self) -> Option<&LlmError> {
        match self {
            ModeSupport::Accepted => None,
            ModeSupport::Refused(error) | ModeSupport::Failed(error) => Some(error),
        }
    }
}

impl std::fmt::Display for ModeSupport {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(mode: ResponseFormatKind) -> ModeSupport {
        ModeSupport::Refused(LlmError::SchemaModeUnsupported {
            status: 500,
            mode,
            suggested: mode.other(),
            message: "response_format".to_owned(),
        })
    }

    fn report(supports: [ModeSupport; 2]) -> SchemaModeReport {
        SchemaModeReport {
            probes: crate::Protocol::ChatCompletions
                .schema_modes()
                .iter()
                .copied()
                .zip(supports)
                .map(|(mode, support)| SchemaModeProbe {
                    mode,
                    support,
                    attempt: None,
                })
                .collect(),
        }
    }

    #[test]
    fn the_stricter_accepted_mode_is_recommended() {
        let both = report([ModeSupport::Accepted, ModeSupport::Accepted]);
        assert_eq!(both.recommended(), Some(ResponseFormatKind::JsonSchema));
        let object_only = report([
            refused(ResponseFormatKind::JsonSchema),
            ModeSupport::Accepted,
        ]);
        assert_eq!(
            object_only.recommended(),
            Some(ResponseFormatKind::JsonObject)
        );
        assert_eq!(
            object_only
                .support(ResponseFormatKind::JsonSchema)
                .map(ModeSupport::as_str),
            Some("refused")
        );
        let neither = report([
            ModeSupport::Failed(LlmError::Cancelled),
            ModeSupport::Failed(LlmError::Cancelled),
        ]);
        assert_eq!(neither.recommended(), None);
    }

    #[test]
    fn support_codes_are_unique_and_listed() {
        let every = [
            ModeSupport::Accepted,
            refused(ResponseFormatKind::JsonSchema),
            ModeSupport::Failed(LlmError::NoApiKey),
        ];
        let codes: Vec<&str> = every.iter().map(ModeSupport::as_str).collect();
        assert_eq!(codes, ModeSupport::CODES);
        let unique: std::collections::HashSet<&str> = codes.iter().copied().collect();
        assert_eq!(unique.len(), codes.len());
        assert_eq!(every[1].to_string(), "refused");
        assert!(every[0].error().is_none() && every[2].error().is_some());
    }
}
