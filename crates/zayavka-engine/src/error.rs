//! What every engine error can say about itself, so that a front end chooses how to show a
//! failure by its kind — never by matching the error's variants or its text — and shows the
//! engine's Russian sentence as it is.
//!
//! A leaf: each error type implements [`EngineError`] beside its own definition.

use zayavka_codes::stable_codes;
use zayavka_core::NextStep;
use zayavka_store::{StoreError, StoreErrorCode};

stable_codes! {
    /// The closed set of ways an engine operation fails, as a front end tells them apart.
    pub enum ErrorKind {
        /// The drafts database could not be opened or used (a full or read-only disk, a lock, a
        /// damaged or newer file).
        Store => "store",
        /// No draft, photo or batch has the number given.
        NotFound => "not_found",
        /// A stored draft or photo does not read back.
        Damaged => "damaged",
        /// The draft cannot be assembled again: it is not a ready draft from a model.
        NotReassemblable => "not_reassemblable",
        /// An edit left the request empty.
        EmptyEdit => "empty_edit",
        /// The settings cannot be read, or a setting was refused.
        Config => "config",
        /// The keyring refused or cannot be reached, or the key is not acceptable.
        Key => "key",
        /// The typed form could not be kept or read back.
        Form => "form",
        /// A batch file could not be read.
        BatchFile => "batch_file",
        /// The batch file has more rows than a batch may have.
        BatchTooLarge => "batch_too_large",
        /// A batch could not be planned or run.
        Batch => "batch",
        /// A photo was refused (not a JPEG or PNG, damaged, too large, too many); nothing changed.
        Photo => "photo",
        /// Files with the same names and other contents are already there; nothing was written.
        FilesExist => "files_exist",
        /// A file could not be written.
        Write => "write",
        /// A file or folder the resident named could not be read, or is not what it should be
        /// (an evaluation's cases, a file given to a command); nothing changed.
        Read => "read",
        /// A value was refused (a profile field too long, an e-mail address that is not one); the
        /// message says what a right one looks like, and nothing changed.
        InvalidValue => "invalid_value",
        /// What was asked cannot be done as asked (a period that ends before it starts).
        InvalidRequest => "invalid_request",
        /// A fault inside Zayavka itself, not the resident's and not the computer's.
        Internal => "internal",
    }
}

/// An error an engine operation returns: its kind, what happened and what to do in one Russian
/// sentence, and, where the engine knows it, the typed next step a front end words its own way.
pub trait EngineError: std::error::Error {
    /// How a front end tells this failure apart.
    fn kind(&self) -> ErrorKind;

    /// What happened and what to do, in Russian, naming no command, flag or button.
    fn message_ru(&self) -> String;

    /// What the resident can do next, when there is one step to offer.
    fn next_step(&self) -> Option<NextStep> {
        None
    }

    /// The drafts database's own code, when the failure is the database's: a front end offers
    /// its own way back from a damaged database (a command, a button) and words it itself.
    fn store_code(&self) -> Option<StoreErrorCode> {
        None
    }
}

impl EngineError for StoreError {
    fn kind(&self) -> ErrorKind {
        ErrorKind::Store
    }

    fn message_ru(&self) -> String {
        StoreError::message_ru(self)
    }

    fn store_code(&self) -> Option<StoreErrorCode> {
        Some(self.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Compiles only for an error that says its kind, its sentence and its next step.
    fn says_what_it_is<E: EngineError>() -> &'static str {
        let name = std::any::type_name::<E>();
        name.rsplit("::").next().unwrap_or(name)
    }

    /// Every error type the engine's root hands a front end implements [`EngineError`], so that
    /// a front end maps any failure by its kind, never by matching variants or text; a new error
    /// re-exported without it fails here.
    #[test]
    fn every_error_a_front_end_receives_is_an_engine_error() {
        let implemented = [
            says_what_it_is::<crate::AttachmentError>(),
            says_what_it_is::<crate::BatchError>(),
            says_what_it_is::<crate::BatchFileError>(),
            says_what_it_is::<crate::CaseError>(),
            says_what_it_is::<crate::ConfigError>(),
            says_what_it_is::<crate::DocumentError>(),
            says_what_it_is::<crate::DocumentsError>(),
            says_what_it_is::<crate::DraftsError>(),
            says_what_it_is::<crate::EnvironmentError>(),
            says_what_it_is::<crate::EvalError>(),
            says_what_it_is::<crate::ExportError>(),
            says_what_it_is::<crate::FilingError>(),
            says_what_it_is::<crate::FormError>(),
            says_what_it_is::<crate::PathsError>(),
            says_what_it_is::<crate::ProfileError>(),
            says_what_it_is::<crate::ReadError>(),
            says_what_it_is::<crate::ReplayError>(),
            says_what_it_is::<crate::SecretError>(),
            says_what_it_is::<crate::SettingError>(),
            says_what_it_is::<crate::SetupError>(),
            says_what_it_is::<crate::StatsError>(),
            says_what_it_is::<crate::StoreError>(),
        ];
        let root = include_str!("lib.rs");
        let mut exported: Vec<&str> = root
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|word| word.ends_with("Error") && *word != "EngineError")
            .collect();
        exported.sort_unstable();
        exported.dedup();
        assert_eq!(exported, implemented);
    }

    /// A database failure keeps its store code through every error that wraps it, so that a
    /// front end can offer its own way back from a damaged database; other failures have none.
    #[test]
    fn a_database_failure_keeps_its_store_code_through_its_wrappers() {
        let corrupt = || StoreError::Corrupt;
        let codes = [
            EngineError::store_code(&corrupt()),
            crate::DraftsError::Store(corrupt()).store_code(),
            crate::BatchError::Store(corrupt()).store_code(),
            crate::AttachmentError::Store(corrupt()).store_code(),
            crate::CaseError::Store(corrupt()).store_code(),
            crate::StatsError::Store(corrupt()).store_code(),
            crate::FilingError::Draft(crate::DraftsError::Store(corrupt())).store_code(),
            crate::CaseError::from(crate::BatchError::Store(corrupt())).store_code(),
        ];
        for code in codes {
            assert_eq!(code, Some(StoreErrorCode::Corrupt));
        }
        assert_eq!(crate::DraftsError::EmptyEdit.store_code(), None);
    }

    /// Every set of error codes the engine declares is unique and round-trips, and the joined
    /// sets repeat no code across the sets they join.
    #[test]
    fn the_error_codes_pass_the_shared_checks() {
        use zayavka_codes::{check_joined_codes, check_stable_codes};
        check_stable_codes::<ErrorKind>().unwrap();
        check_stable_codes::<crate::ConfigErrorCode>().unwrap();
        check_stable_codes::<crate::PathsErrorCode>().unwrap();
        check_stable_codes::<crate::ReadErrorCode>().unwrap();
        check_stable_codes::<crate::SecretErrorCode>().unwrap();
        check_stable_codes::<crate::AttachmentCode>().unwrap();
        check_stable_codes::<crate::ContentErrorCode>().unwrap();
        check_joined_codes(
            crate::AttachmentErrorCode::all()
                .into_iter()
                .map(crate::AttachmentErrorCode::code),
        )
        .unwrap();
        check_joined_codes(
            crate::BatchFileErrorCode::all()
                .into_iter()
                .map(crate::BatchFileErrorCode::code),
        )
        .unwrap();
    }

    #[test]
    fn every_kind_is_listed_once_and_serialises_as_stable_snake_case() {
        let codes: Vec<String> = ErrorKind::ALL
            .iter()
            .map(|kind| {
                serde_json::to_value(kind)
                    .unwrap()
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect();
        let unique: std::collections::BTreeSet<&String> = codes.iter().collect();
        assert_eq!(unique.len(), ErrorKind::ALL.len(), "{codes:?}");
        assert!(codes.contains(&"not_reassemblable".to_owned()));
        assert!(codes.contains(&"files_exist".to_owned()));
        for code in &codes {
            assert!(
                code.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{code}"
            );
        }
    }
}
