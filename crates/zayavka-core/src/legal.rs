//! The legal catalogue: the paragraphs a request may cite, with their sources and review state.
//!
//! The texts are maintainers' data, not code and not model output: they live as TOML files in
//! `legal_modules/` at the workspace root and are embedded into the binary at compile time, so a
//! request can be reproduced byte for byte from the catalogue version recorded with it. The
//! catalogue is one common block (two paragraphs, added to every request) and one module per
//! [`SubjectKind`] (one paragraph, added only when the policy confirms the subject).
//!
//! Everything the assembly relies on is checked once, in [`parse_catalogue`], so that the rest of
//! the code can take the shape of the catalogue for granted: the common block has two paragraphs,
//! every subject kind has exactly one module with one paragraph, and no paragraph can smuggle a
//! line break, a URL or a «Прошу» block into the request body. How a maintainer re-verifies a
//! module is described in `docs/legal-maintenance.md`.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

use jiff::civil::Date;
use serde::{Deserialize, Serialize};
use zayavka_codes::stable_codes;

use crate::subject::SubjectKind;
use crate::text::{contains_request_word, contains_url, is_line_break};

/// The name of the index file; it has no name of its own in [`parse_catalogue`]'s arguments,
/// but errors still need to say which file is wrong.
const INDEX_FILE_NAME: &str = "catalogue.toml";

/// The file of the common block. It is singled out by name rather than by a missing `subject`,
/// so that a subject module that forgot its `subject` is reported instead of mistaken for it.
const COMMON_FILE_NAME: &str = "common.toml";

/// The number of paragraphs of the common block (LEGAL_FACTS.md, «Common block»).
const COMMON_PARAGRAPHS: usize = 2;

/// The number of paragraphs of a subject module; the assembly adds at most one such paragraph.
const SUBJECT_PARAGRAPHS: usize = 1;

/// The index file, embedded so that the binary carries the exact catalogue it was tested with.
const EMBEDDED_INDEX: &str = include_str!("../../../legal_modules/catalogue.toml");

/// The module files, embedded by name. `include_str!` needs literal paths, so this list repeats
/// the index; [`parse_catalogue`] refuses any difference between the two, and a test proves they
/// agree.
const EMBEDDED_FILES: [(&str, &str); 7] = [
    (
        "common.toml",
        include_str!("../../../legal_modules/common.toml"),
    ),
    (
        "common_area_entrance_door.toml",
        include_str!("../../../legal_modules/common_area_entrance_door.toml"),
    ),
    (
        "common_area_premises_lighting.toml",
        include_str!("../../../legal_modules/common_area_premises_lighting.toml"),
    ),
    (
        "common_area_premises_cleaning.toml",
        include_str!("../../../legal_modules/common_area_premises_cleaning.toml"),
    ),
    (
        "common_area_roof.toml",
        include_str!("../../../legal_modules/common_area_roof.toml"),
    ),
    (
        "common_area_ventilation.toml",
        include_str!("../../../legal_modules/common_area_ventilation.toml"),
    ),
    (
        "common_area_elevator.toml",
        include_str!("../../../legal_modules/common_area_elevator.toml"),
    ),
];

/// The embedded catalogue, parsed on first use. Parsing cannot fail at run time because the test
/// `embedded_catalogue_parses` parses the very same bytes.
static EMBEDDED_CATALOGUE: LazyLock<LegalCatalogue> =
    LazyLock::new(|| match parse_catalogue(EMBEDDED_INDEX, &EMBEDDED_FILES) {
        Ok(catalogue) => catalogue,
        Err(error) => panic!("the embedded legal catalogue is invalid: {error}"),
    });

/// The legal catalogue embedded in this build.
///
/// # Panics
///
/// Only if the embedded data is invalid, which the unit tests of this module rule out for every
/// build that passed them.
pub fn catalogue() -> &'static LegalCatalogue {
    &EMBEDDED_CATALOGUE
}

/// A validated legal catalogue: a version, the common block and one module per subject kind.
///
/// The only way to obtain one is [`parse_catalogue`] (or [`catalogue`]), so holding a value means
/// every rule of the catalogue holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LegalCatalogue {
    /// The catalogue version, recorded with every draft so that it can be replayed.
    version: String,
    /// The common block; it has exactly two paragraphs.
    common: LegalModule,
    /// One module per subject kind, in [`SubjectKind::ALL`] order, each with one paragraph.
    subjects: Vec<LegalModule>,
}

impl LegalCatalogue {
    /// The catalogue version, e.g. `2026.11.1`.
    pub fn version(&self) -> &str {
        &self.version
    }

    /// The common block, added to every request before «Прошу:». It has exactly two paragraphs.
    pub fn common(&self) -> &LegalModule {
        &self.common
    }

    /// The module of a subject kind. It has exactly one paragraph.
    pub fn subject(&self, kind: SubjectKind) -> &LegalModule {
        self.subjects
            .iter()
            .find(|module| module.subject == Some(kind))
            .expect("parse_catalogue admits only catalogues with a module for every subject kind")
    }

    /// Every module: the common block first, then the subject modules in [`SubjectKind::ALL`]
    /// order.
    pub fn modules(&self) -> impl Iterator<Item = &LegalModule> {
        std::iter::once(&self.common).chain(self.subjects.iter())
    }

    /// The modules whose `valid_through` is before `today` and which therefore need to be checked
    /// again against the official text. A module is still valid on its `valid_through` date.
    ///
    /// The date is an argument because this crate reads no clock; `zayavka doctor` and the tests
    /// pass the current date.
    pub fn past_valid_through(&self, today: Date) -> Vec<&LegalModule> {
        self.modules()
            .filter(|module| module.valid_through < today)
            .collect()
    }

    /// The modules that a maintainer has not yet fully checked against the official text: every
    /// module whose review status is not [`ReviewStatus::Verified`].
    pub fn awaiting_verification(&self) -> Vec<&LegalModule> {
        self.modules()
            .filter(|module| module.review.status != ReviewStatus::Verified)
            .collect()
    }
}

/// One legal module: the paragraphs a request may cite, where they apply and how they were checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LegalModule {
    /// The stable identifier: the file name without `.toml` (`common`, or a subject kind).
    pub id: String,
    /// The subject kind this module belongs to; `None` for the common block.
    pub subject: Option<SubjectKind>,
    /// A short Russian title for maintainers and for the provenance view.
    pub title: String,
    /// The paragraphs, each one trimmed line ending with a period, in the order they are printed.
    pub paragraphs: Vec<String>,
    /// In Russian: where the module applies and where it does not.
    pub scope: String,
    /// The acts and provisions the paragraphs rest on; never empty.
    pub sources: Vec<LegalSource>,
    /// The day the module was last reviewed against the texts available to the maintainer.
    pub verified_at: Date,
    /// The last day the module counts as current; after it, the module needs another review.
    pub valid_through: Date,
    /// What has been checked against the official text and what is still waiting.
    pub review: Review,
}

/// A legal act that a module cites.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LegalSource {
    /// The full Russian title of the act, with its date and number.
    pub title: String,
    /// The cited provisions, e.g. «п. 2, пп. «г»; п. 10».
    pub provisions: String,
    /// The edition of the act the paragraphs were written against.
    pub edition: String,
    /// Whether the edition was confirmed against the official publication.
    pub edition_verified: bool,
    /// Where the official text can be read; a reference for maintainers, never printed in a request.
    pub official_page: String,
}

/// The state of a module's check against the official texts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Review {
    /// The overall status; [`ReviewStatus::Verified`] only when nothing awaits a check.
    pub status: ReviewStatus,
    /// The provisions already checked against an official or quoted text.
    pub checked: Vec<String>,
    /// The provisions and editions still to be checked.
    pub awaiting_check: Vec<String>,
    /// A maintainer's note on what was checked, against what, and what remains uncertain.
    pub note: String,
}

stable_codes! {
    /// How far a module has been checked against the official texts.
    pub enum ReviewStatus {
        /// Every provision and every edition was checked against the official text.
        Verified => "verified",
        /// Some provisions were checked, others still wait.
        PartiallyVerified => "partially_verified",
        /// Nothing was checked against the official text yet.
        AwaitingVerification => "awaiting_verification",
    }
}

impl ReviewStatus {
    /// The status in Russian, for a line a resident may read (issue 38).
    pub fn label_ru(self) -> &'static str {
        match self {
            ReviewStatus::Verified => "сверено",
            ReviewStatus::PartiallyVerified => "сверено частично",
            ReviewStatus::AwaitingVerification => "ждёт сверки",
        }
    }
}

/// Why a legal catalogue was refused. Every variant names the file at fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LegalCatalogueError {
    /// A file is not valid TOML, lacks a required field, has a field of the wrong type, or has a
    /// field the catalogue does not know (unknown fields are refused so that a misspelt key is
    /// never silently ignored).
    #[error("{file}: {details}")]
    Toml {
        /// The file that failed to parse.
        file: String,
        /// The parser's explanation, with the line and column.
        details: toml::de::Error,
    },
    /// A required text field is empty or only whitespace.
    #[error("{file}: the field `{field}` is empty")]
    EmptyField {
        /// The file that holds the field.
        file: String,
        /// The field's path, e.g. `title` or `sources[0].edition`.
        field: String,
    },
    /// The index lists the same module file twice, or the same file name was supplied twice.
    #[error("{file}: the module file is listed or supplied more than once")]
    DuplicateFile {
        /// The repeated file name.
        file: String,
    },
    /// The index lists a module file whose contents were not supplied.
    #[error("{file}: the file is listed in {INDEX_FILE_NAME} but was not supplied")]
    MissingFile {
        /// The listed file name.
        file: String,
    },
    /// A module file was supplied but the index does not list it.
    #[error("{file}: the file is not listed in {INDEX_FILE_NAME}")]
    UnlistedFile {
        /// The unlisted file name.
        file: String,
    },
    /// The index does not list the common block's file.
    #[error("{INDEX_FILE_NAME}: the common block `{COMMON_FILE_NAME}` is not listed")]
    MissingCommon,
    /// A module's `id` is not its file name without `.toml`.
    #[error("{file}: the id `{id}` must be the file name without `.toml`")]
    IdMismatch {
        /// The module file.
        file: String,
        /// The id found in it.
        id: String,
    },
    /// The common block names a subject kind; it applies to every request, so it must not.
    #[error("{file}: the common block must not have a `subject`")]
    CommonHasSubject {
        /// The common block's file.
        file: String,
    },
    /// The common block does not have exactly two paragraphs.
    #[error(
        "{file}: the common block must have exactly {COMMON_PARAGRAPHS} paragraphs, found {found}"
    )]
    CommonParagraphCount {
        /// The common block's file.
        file: String,
        /// The number of paragraphs found.
        found: usize,
    },
    /// A module other than the common block has no `subject`.
    #[error("{file}: a module other than `{COMMON_FILE_NAME}` must name its `subject`")]
    ModuleWithoutSubject {
        /// The module file.
        file: String,
    },
    /// A subject module does not have exactly one paragraph.
    #[error(
        "{file}: a subject module must have exactly {SUBJECT_PARAGRAPHS} paragraph, found {found}"
    )]
    SubjectParagraphCount {
        /// The module file.
        file: String,
        /// The number of paragraphs found.
        found: usize,
    },
    /// Two modules name the same subject kind.
    #[error("{file}: the subject `{kind}` already has a module in {first_file}")]
    DuplicateSubject {
        /// The second module file for the kind.
        file: String,
        /// The repeated kind.
        kind: SubjectKind,
        /// The file that already holds the kind's module.
        first_file: String,
    },
    /// A subject module's file is not named after its subject kind.
    #[error("{file}: the module of `{kind}` must be in the file `{kind}.toml`")]
    SubjectFileNameMismatch {
        /// The module file.
        file: String,
        /// The kind the module names.
        kind: SubjectKind,
    },
    /// A subject kind has no module.
    #[error("{INDEX_FILE_NAME}: no module for the subject `{kind}`; add `{kind}.toml`")]
    MissingSubject {
        /// The kind without a module.
        kind: SubjectKind,
    },
    /// A paragraph is empty or only whitespace.
    #[error("{file}: paragraph {number} is empty")]
    EmptyParagraph {
        /// The module file.
        file: String,
        /// The paragraph's number, counting from 1.
        number: usize,
    },
    /// A paragraph contains a line break; the assembly separates sections by line breaks, so a
    /// paragraph must be one line.
    #[error("{file}: paragraph {number} contains a line break; a paragraph must be one line")]
    MultiLineParagraph {
        /// The module file.
        file: String,
        /// The paragraph's number, counting from 1.
        number: usize,
    },
    /// A paragraph starts or ends with whitespace.
    #[error("{file}: paragraph {number} starts or ends with whitespace")]
    UntrimmedParagraph {
        /// The module file.
        file: String,
        /// The paragraph's number, counting from 1.
        number: usize,
    },
    /// A paragraph does not end with a period.
    #[error("{file}: paragraph {number} must end with a period")]
    ParagraphWithoutFinalPeriod {
        /// The module file.
        file: String,
        /// The paragraph's number, counting from 1.
        number: usize,
    },
    /// A paragraph contains a web address; the request body carries no links.
    #[error("{file}: paragraph {number} contains a URL; keep links in `sources.official_page`")]
    UrlInParagraph {
        /// The module file.
        file: String,
        /// The paragraph's number, counting from 1.
        number: usize,
    },
    /// A paragraph contains «Прошу»; what is requested is the resident's, never the catalogue's.
    #[error(
        "{file}: paragraph {number} contains «Прошу»; a legal paragraph must not request anything"
    )]
    RequestInParagraph {
        /// The module file.
        file: String,
        /// The paragraph's number, counting from 1.
        number: usize,
    },
    /// A module cites no source.
    #[error("{file}: the module must list at least one source")]
    NoSources {
        /// The module file.
        file: String,
    },
    /// A date field is not a plain calendar date such as `2026-11-29`.
    #[error("{file}: `{field}` must be a plain date such as 2026-11-29, found {value}")]
    InvalidDate {
        /// The module file.
        file: String,
        /// The date field.
        field: String,
        /// The value found.
        value: String,
    },
    /// `valid_through` is not after `verified_at`.
    #[error("{file}: valid_through ({valid_through}) must be after verified_at ({verified_at})")]
    ValidThroughNotAfterVerifiedAt {
        /// The module file.
        file: String,
        /// The review date.
        verified_at: Date,
        /// The end of validity.
        valid_through: Date,
    },
    /// The status is `verified` while `awaiting_check` still lists something.
    #[error("{file}: the status is `verified` but awaiting_check lists {count} item(s)")]
    VerifiedWithPendingChecks {
        /// The module file.
        file: String,
        /// The number of items still awaiting a check.
        count: usize,
    },
    /// The status is `verified` while a source's edition is not confirmed; a text checked against
    /// an unknown edition is not verified.
    #[error("{file}: the status is `verified` but the edition of source {number} is not verified")]
    VerifiedWithUnverifiedEdition {
        /// The module file.
        file: String,
        /// The source's number, counting from 1.
        number: usize,
    },
}

/// The index file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawIndex {
    version: String,
    modules: Vec<String>,
}

/// A module file as written, before its dates are converted and its rules checked.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawModule {
    id: String,
    subject: Option<SubjectKind>,
    title: String,
    paragraphs: Vec<String>,
    scope: String,
    sources: Vec<LegalSource>,
    // TOML has a native date type, which serde hands over as a special map rather than a
    // string; it is read as a TOML datetime and converted, so that maintainers write plain dates.
    verified_at: toml::value::Datetime,
    valid_through: toml::value::Datetime,
    review: Review,
}

/// Parses and validates a legal catalogue.
///
/// `index` is the contents of `catalogue.toml`; `files` are the module files as
/// `(file name, contents)`. Every listed file must be supplied and every supplied file listed.
/// The first rule that fails is returned; see [`LegalCatalogueError`] for the rules.
pub fn parse_catalogue(
    index: &str,
    files: &[(&str, &str)],
) -> Result<LegalCatalogue, LegalCatalogueError> {
    let index: RawIndex = parse_toml(INDEX_FILE_NAME, index)?;
    require_text(INDEX_FILE_NAME, "version", &index.version)?;

    let mut listed = BTreeSet::new();
    for file in &index.modules {
        if !listed.insert(file.as_str()) {
            return Err(LegalCatalogueError::DuplicateFile { file: file.clone() });
        }
    }
    let mut supplied = BTreeMap::new();
    for &(file, contents) in files {
        if supplied.insert(file, contents).is_some() {
            return Err(LegalCatalogueError::DuplicateFile {
                file: file.to_owned(),
            });
        }
        if !listed.contains(file) {
            return Err(LegalCatalogueError::UnlistedFile {
                file: file.to_owned(),
            });
        }
    }
    if !listed.contains(COMMON_FILE_NAME) {
        return Err(LegalCatalogueError::MissingCommon);
    }

    let mut common = None;
    let mut by_kind: BTreeMap<SubjectKind, (&str, LegalModule)> = BTreeMap::new();
    for file in &index.modules {
        let file = file.as_str();
        let Some(contents) = supplied.get(file) else {
            return Err(LegalCatalogueError::MissingFile {
                file: file.to_owned(),
            });
        };
        let module = parse_module(file, contents)?;
        if file == COMMON_FILE_NAME {
            if module.subject.is_some() {
                return Err(LegalCatalogueError::CommonHasSubject {
                    file: file.to_owned(),
                });
            }
            if module.paragraphs.len() != COMMON_PARAGRAPHS {
                return Err(LegalCatalogueError::CommonParagraphCount {
                    file: file.to_owned(),
                    found: module.paragraphs.len(),
                });
            }
            common = Some(module);
            continue;
        }
        let Some(kind) = module.subject else {
            return Err(LegalCatalogueError::ModuleWithoutSubject {
                file: file.to_owned(),
            });
        };
        if module.paragraphs.len() != SUBJECT_PARAGRAPHS {
            return Err(LegalCatalogueError::SubjectParagraphCount {
                file: file.to_owned(),
                found: module.paragraphs.len(),
            });
        }
        if let Some((first_file, _)) = by_kind.get(&kind) {
            return Err(LegalCatalogueError::DuplicateSubject {
                file: file.to_owned(),
                kind,
                first_file: (*first_file).to_owned(),
            });
        }
        if file != format!("{kind}.toml") {
            return Err(LegalCatalogueError::SubjectFileNameMismatch {
                file: file.to_owned(),
                kind,
            });
        }
        by_kind.insert(kind, (file, module));
    }

    let Some(common) = common else {
        return Err(LegalCatalogueError::MissingCommon);
    };
    let mut subjects = Vec::with_capacity(SubjectKind::ALL.len());
    for &kind in SubjectKind::ALL {
        let Some((_, module)) = by_kind.remove(&kind) else {
            return Err(LegalCatalogueError::MissingSubject { kind });
        };
        subjects.push(module);
    }

    Ok(LegalCatalogue {
        version: index.version,
        common,
        subjects,
    })
}

/// Parses one TOML file, naming it in the error.
pub(crate) fn parse_toml<T: serde::de::DeserializeOwned>(
    file: &str,
    contents: &str,
) -> Result<T, LegalCatalogueError> {
    toml::from_str(contents).map_err(|details| LegalCatalogueError::Toml {
        file: file.to_owned(),
        details,
    })
}

/// Parses one module file and checks every rule that concerns the module on its own; the rules
/// that depend on its place in the catalogue are checked by [`parse_catalogue`].
fn parse_module(file: &str, contents: &str) -> Result<LegalModule, LegalCatalogueError> {
    let raw: RawModule = parse_toml(file, contents)?;

    require_text(file, "id", &raw.id)?;
    if Some(raw.id.as_str()) != file.strip_suffix(".toml") {
        return Err(LegalCatalogueError::IdMismatch {
            file: file.to_owned(),
            id: raw.id,
        });
    }
    require_text(file, "title", &raw.title)?;
    require_text(file, "scope", &raw.scope)?;
    for (index, paragraph) in raw.paragraphs.iter().enumerate() {
        check_paragraph(file, index + 1, paragraph)?;
    }

    let verified_at = civil_date(file, "verified_at", &raw.verified_at)?;
    let valid_through = civil_date(file, "valid_through", &raw.valid_through)?;
    if valid_through <= verified_at {
        return Err(LegalCatalogueError::ValidThroughNotAfterVerifiedAt {
            file: file.to_owned(),
            verified_at,
            valid_through,
        });
    }

    let review = raw.review;
    check_review(file, &review, &raw.sources)?;

    Ok(LegalModule {
        id: raw.id,
        subject: raw.subject,
        title: raw.title,
        paragraphs: raw.paragraphs,
        scope: raw.scope,
        sources: raw.sources,
        verified_at,
        valid_through,
        review,
    })
}

/// Checks a source list and a review as every reviewed data file of the catalogue has them
/// (the legal modules here, the answer terms and calendar years in `deadline.rs`): at least one
/// source with every field filled, the review's texts filled, and `verified` only when nothing
/// awaits a check and every edition is confirmed.
pub(crate) fn check_review(
    file: &str,
    review: &Review,
    sources: &[LegalSource],
) -> Result<(), LegalCatalogueError> {
    if sources.is_empty() {
        return Err(LegalCatalogueError::NoSources {
            file: file.to_owned(),
        });
    }
    for (index, source) in sources.iter().enumerate() {
        let field = |name: &str| format!("sources[{index}].{name}");
        require_text(file, &field("title"), &source.title)?;
        require_text(file, &field("provisions"), &source.provisions)?;
        require_text(file, &field("edition"), &source.edition)?;
        require_text(file, &field("official_page"), &source.official_page)?;
    }
    for (index, item) in review.checked.iter().enumerate() {
        require_text(file, &format!("review.checked[{index}]"), item)?;
    }
    for (index, item) in review.awaiting_check.iter().enumerate() {
        require_text(file, &format!("review.awaiting_check[{index}]"), item)?;
    }
    require_text(file, "review.note", &review.note)?;
    if review.status == ReviewStatus::Verified {
        if !review.awaiting_check.is_empty() {
            return Err(LegalCatalogueError::VerifiedWithPendingChecks {
                file: file.to_owned(),
                count: review.awaiting_check.len(),
            });
        }
        if let Some(index) = sources.iter().position(|source| !source.edition_verified) {
            return Err(LegalCatalogueError::VerifiedWithUnverifiedEdition {
                file: file.to_owned(),
                number: index + 1,
            });
        }
    }
    Ok(())
}

/// Refuses an empty or whitespace-only text field.
pub(crate) fn require_text(
    file: &str,
    field: &str,
    value: &str,
) -> Result<(), LegalCatalogueError> {
    if value.trim().is_empty() {
        return Err(LegalCatalogueError::EmptyField {
            file: file.to_owned(),
            field: field.to_owned(),
        });
    }
    Ok(())
}

/// Checks that a paragraph can be printed as it is: the assembly copies it verbatim into the
/// request body, so anything it lets through reaches the management company.
fn check_paragraph(file: &str, number: usize, paragraph: &str) -> Result<(), LegalCatalogueError> {
    let file = file.to_owned();
    if paragraph.trim().is_empty() {
        return Err(LegalCatalogueError::EmptyParagraph { file, number });
    }
    if paragraph.chars().any(is_line_break) {
        return Err(LegalCatalogueError::MultiLineParagraph { file, number });
    }
    if paragraph.trim() != paragraph {
        return Err(LegalCatalogueError::UntrimmedParagraph { file, number });
    }
    if !paragraph.ends_with('.') {
        return Err(LegalCatalogueError::ParagraphWithoutFinalPeriod { file, number });
    }
    if contains_url(paragraph) {
        return Err(LegalCatalogueError::UrlInParagraph { file, number });
    }
    if contains_request_word(paragraph) {
        return Err(LegalCatalogueError::RequestInParagraph { file, number });
    }
    Ok(())
}

/// Converts a TOML date into a civil date, refusing a time or an offset: a review date is a day,
/// and a time would suggest a precision the review does not have.
pub(crate) fn civil_date(
    file: &str,
    field: &str,
    value: &toml::value::Datetime,
) -> Result<Date, LegalCatalogueError> {
    let invalid = || LegalCatalogueError::InvalidDate {
        file: file.to_owned(),
        field: field.to_owned(),
        value: value.to_string(),
    };
    let (Some(date), None, None) = (value.date, value.time, value.offset) else {
        return Err(invalid());
    };
    let year = i16::try_from(date.year).map_err(|_| invalid())?;
    let month = i8::try_from(date.month).map_err(|_| invalid())?;
    let day = i8::try_from(date.day).map_err(|_| invalid())?;
    Date::new(year, month, day).map_err(|_| invalid())
}

#[cfg(test)]
mod tests {
    use super::*;

    // The embedded catalogue.

    #[test]
    fn embedded_catalogue_parses() {
        if let Err(error) = parse_catalogue(EMBEDDED_INDEX, &EMBEDDED_FILES) {
            panic!("the embedded legal catalogue is invalid: {error}");
        }
        assert!(!catalogue().version().is_empty());
    }

    #[test]
    fn embedded_catalogue_has_two_common_paragraphs_and_one_per_subject() {
        let catalogue = catalogue();
        assert_eq!(catalogue.common().paragraphs.len(), 2);
        assert_eq!(catalogue.common().subject, None);
        for &kind in SubjectKind::ALL {
            let module = catalogue.subject(kind);
            assert_eq!(module.subject, Some(kind));
            assert_eq!(module.id, kind.code());
            assert_eq!(module.paragraphs.len(), 1, "{kind}");
        }
    }

    #[test]
    fn modules_lists_common_first_then_kinds_in_order() {
        let ids: Vec<&str> = catalogue()
            .modules()
            .map(|module| module.id.as_str())
            .collect();
        let mut expected = vec!["common"];
        expected.extend(SubjectKind::ALL.iter().map(|kind| kind.code()));
        assert_eq!(ids, expected);
    }

    #[test]
    fn no_module_is_past_valid_through() {
        let today = jiff::Zoned::now().date();
        let expired: Vec<String> = catalogue()
            .past_valid_through(today)
            .into_iter()
            .map(|module| format!("{} (valid through {})", module.id, module.valid_through))
            .collect();
        assert!(
            expired.is_empty(),
            "these legal modules are past valid_through and must be re-verified against the \
             official text (see docs/legal-maintenance.md): {}",
            expired.join(", ")
        );
    }

    #[test]
    fn every_paragraph_cites_its_act() {
        let catalogue = catalogue();
        let [housing_code, management_rules] = catalogue.common().paragraphs.as_slice() else {
            panic!("the common block must have two paragraphs");
        };
        assert!(
            housing_code.contains("статьи 161 Жилищного кодекса РФ"),
            "{housing_code}"
        );
        assert!(management_rules.contains("№ 416"), "{management_rules}");
        for &kind in SubjectKind::ALL {
            for paragraph in &catalogue.subject(kind).paragraphs {
                assert!(
                    paragraph.contains("№ 491"),
                    "{kind}: the paragraph does not cite ПП № 491: {paragraph}"
                );
            }
        }
    }

    #[test]
    fn common_block_keeps_the_wording_of_part_2_3() {
        // LEGAL_FACTS.md asks for ч. 2.3's own wording, not a looser «responsible for the upkeep».
        let housing_code = &catalogue().common().paragraphs[0];
        assert!(
            housing_code.contains(
                "несёт ответственность перед собственниками помещений в доме за оказание всех \
                 услуг и (или) выполнение работ, которые обеспечивают надлежащее содержание \
                 общего имущества"
            ),
            "{housing_code}"
        );
    }

    #[test]
    fn every_embedded_module_is_reviewed_and_sourced() {
        for module in catalogue().modules() {
            assert!(!module.sources.is_empty(), "{}", module.id);
            // A module that is not verified must say what is left, or the doctor has nothing to
            // show the maintainer.
            if module.review.status != ReviewStatus::Verified {
                assert!(!module.review.awaiting_check.is_empty(), "{}", module.id);
            }
        }
    }

    // Fixtures: a small valid catalogue, edited into each invalid shape.

    const COMMON_PARAGRAPH_1: &str = "Первый абзац общего блока.";
    const COMMON_PARAGRAPH_2: &str = "Второй абзац общего блока.";
    const SUBJECT_PARAGRAPH: &str = "Абзац модуля.";
    const SOURCES_LINE: &str = "sources = [{ title = \"Акт\", provisions = \"п. 1\", \
        edition = \"редакция от 01.01.2026\", edition_verified = true, \
        official_page = \"http://pravo.gov.ru/\" }]";
    const ROOF_FILE: &str = "common_area_roof.toml";

    struct Fixture {
        index: String,
        files: Vec<(String, String)>,
    }

    fn module_text(id: &str, subject: Option<SubjectKind>, paragraphs: &[&str]) -> String {
        let subject = match subject {
            Some(kind) => format!("subject = \"{kind}\"\n"),
            None => String::new(),
        };
        let paragraphs: Vec<String> = paragraphs.iter().map(|p| format!("\"{p}\"")).collect();
        format!(
            "id = \"{id}\"\n{subject}title = \"Заголовок\"\nparagraphs = [{}]\n\
             scope = \"Где применяется.\"\nverified_at = 2026-11-29\nvalid_through = 2027-05-31\n\
             {SOURCES_LINE}\n\n[review]\nstatus = \"verified\"\nchecked = [\"п. 1\"]\n\
             awaiting_check = []\nnote = \"Сверено.\"\n",
            paragraphs.join(", ")
        )
    }

    impl Fixture {
        fn valid() -> Self {
            let mut files = vec![(
                COMMON_FILE_NAME.to_owned(),
                module_text("common", None, &[COMMON_PARAGRAPH_1, COMMON_PARAGRAPH_2]),
            )];
            for &kind in SubjectKind::ALL {
                files.push((
                    format!("{kind}.toml"),
                    module_text(kind.code(), Some(kind), &[SUBJECT_PARAGRAPH]),
                ));
            }
            let mut fixture = Fixture {
                index: String::new(),
                files,
            };
            fixture.relist();
            fixture
        }

        /// Rewrites the index to list exactly the fixture's files, in order.
        fn relist(&mut self) {
            let listed: Vec<String> = self
                .files
                .iter()
                .map(|(file, _)| format!("\"{file}\""))
                .collect();
            self.index = format!(
                "version = \"2026.11.1\"\nmodules = [{}]\n",
                listed.join(", ")
            );
        }

        fn edit(mut self, file: &str, from: &str, to: &str) -> Self {
            let (_, contents) = self
                .files
                .iter_mut()
                .find(|(name, _)| name == file)
                .unwrap_or_else(|| panic!("the fixture has no file {file}"));
            assert!(contents.contains(from), "{file} does not contain {from:?}");
            *contents = contents.replacen(from, to, 1);
            self
        }

        fn edit_index(mut self, from: &str, to: &str) -> Self {
            assert!(
                self.index.contains(from),
                "the index does not contain {from:?}"
            );
            self.index = self.index.replacen(from, to, 1);
            self
        }

        fn without(mut self, file: &str) -> Self {
            self.files.retain(|(name, _)| name != file);
            self.relist();
            self
        }

        fn parse(&self) -> Result<LegalCatalogue, LegalCatalogueError> {
            let files: Vec<(&str, &str)> = self
                .files
                .iter()
                .map(|(file, contents)| (file.as_str(), contents.as_str()))
                .collect();
            parse_catalogue(&self.index, &files)
        }

        fn error(&self) -> LegalCatalogueError {
            match self.parse() {
                Ok(_) => panic!("the fixture should have been refused"),
                Err(error) => error,
            }
        }
    }

    fn assert_names_file(error: &LegalCatalogueError, file: &str) {
        assert!(
            error.to_string().contains(file),
            "{error} does not name {file}"
        );
    }

    #[test]
    fn valid_fixture_parses() {
        let catalogue = Fixture::valid().parse().unwrap();
        assert_eq!(catalogue.version(), "2026.11.1");
        assert_eq!(catalogue.modules().count(), 1 + SubjectKind::ALL.len());
        assert_eq!(
            catalogue.subject(SubjectKind::CommonAreaRoof).paragraphs,
            [SUBJECT_PARAGRAPH]
        );
    }

    #[test]
    fn subject_modules_follow_subject_kind_order_whatever_the_index_order() {
        let mut fixture = Fixture::valid();
        fixture.files.reverse();
        fixture.relist();
        let catalogue = fixture.parse().unwrap();
        let kinds: Vec<Option<SubjectKind>> =
            catalogue.modules().map(|module| module.subject).collect();
        let mut expected = vec![None];
        expected.extend(SubjectKind::ALL.iter().copied().map(Some));
        assert_eq!(kinds, expected);
    }

    #[test]
    fn past_valid_through_reports_modules_after_their_last_valid_day() {
        let catalogue = Fixture::valid()
            .edit(
                ROOF_FILE,
                "valid_through = 2027-05-31",
                "valid_through = 2027-01-31",
            )
            .parse()
            .unwrap();
        assert!(
            catalogue
                .past_valid_through(jiff::civil::date(2027, 1, 31))
                .is_empty()
        );
        let expired = catalogue.past_valid_through(jiff::civil::date(2027, 2, 1));
        let ids: Vec<&str> = expired.iter().map(|module| module.id.as_str()).collect();
        assert_eq!(ids, ["common_area_roof"]);
        assert_eq!(
            catalogue
                .past_valid_through(jiff::civil::date(2027, 6, 1))
                .len(),
            1 + SubjectKind::ALL.len()
        );
    }

    #[test]
    fn awaiting_verification_lists_every_module_not_verified() {
        let catalogue = Fixture::valid()
            .edit(
                COMMON_FILE_NAME,
                "status = \"verified\"",
                "status = \"partially_verified\"",
            )
            .edit(
                ROOF_FILE,
                "status = \"verified\"",
                "status = \"awaiting_verification\"",
            )
            .parse()
            .unwrap();
        let ids: Vec<&str> = catalogue
            .awaiting_verification()
            .iter()
            .map(|module| module.id.as_str())
            .collect();
        assert_eq!(ids, ["common", "common_area_roof"]);
    }

    #[test]
    fn toml_syntax_error_names_the_file() {
        let error = Fixture::valid().edit(ROOF_FILE, "id = ", "id = = ").error();
        assert!(matches!(error, LegalCatalogueError::Toml { ref file, .. } if file == ROOF_FILE));
        assert_names_file(&error, ROOF_FILE);
    }

    #[test]
    fn unknown_field_in_a_module_is_refused() {
        let error = Fixture::valid()
            .edit(ROOF_FILE, "id = ", "colour = \"red\"\nid = ")
            .error();
        assert!(matches!(error, LegalCatalogueError::Toml { .. }), "{error}");
        assert!(error.to_string().contains("unknown field"), "{error}");
        assert_names_file(&error, ROOF_FILE);
    }

    #[test]
    fn unknown_field_in_the_review_is_refused() {
        let error = Fixture::valid()
            .edit(ROOF_FILE, "note = ", "reviewer = \"Иванов\"\nnote = ")
            .error();
        assert!(error.to_string().contains("unknown field"), "{error}");
    }

    #[test]
    fn unknown_field_in_the_index_is_refused() {
        let error = Fixture::valid()
            .edit_index("version = ", "edition = \"x\"\nversion = ")
            .error();
        assert!(error.to_string().contains("unknown field"), "{error}");
        assert_names_file(&error, INDEX_FILE_NAME);
    }

    #[test]
    fn empty_version_is_refused() {
        let error = Fixture::valid()
            .edit_index("\"2026.11.1\"", "\" \"")
            .error();
        assert!(
            matches!(error, LegalCatalogueError::EmptyField { ref field, .. } if field == "version"),
            "{error}"
        );
    }

    #[test]
    fn file_listed_twice_is_refused() {
        let error = Fixture::valid()
            .edit_index("modules = [", "modules = [\"common_area_roof.toml\", ")
            .error();
        assert!(
            matches!(error, LegalCatalogueError::DuplicateFile { .. }),
            "{error}"
        );
        assert_names_file(&error, ROOF_FILE);
    }

    #[test]
    fn listed_file_that_was_not_supplied_is_refused() {
        let mut fixture = Fixture::valid();
        fixture.files.retain(|(file, _)| file != ROOF_FILE);
        let error = fixture.error();
        assert!(
            matches!(error, LegalCatalogueError::MissingFile { .. }),
            "{error}"
        );
        assert_names_file(&error, ROOF_FILE);
    }

    #[test]
    fn supplied_file_that_is_not_listed_is_refused() {
        let mut fixture = Fixture::valid();
        fixture
            .files
            .push(("notes.toml".to_owned(), "id = \"notes\"".to_owned()));
        let error = fixture.error();
        assert!(
            matches!(error, LegalCatalogueError::UnlistedFile { .. }),
            "{error}"
        );
        assert_names_file(&error, "notes.toml");
    }

    #[test]
    fn catalogue_without_common_block_is_refused() {
        let error = Fixture::valid().without(COMMON_FILE_NAME).error();
        assert_eq!(error, LegalCatalogueError::MissingCommon);
    }

    #[test]
    fn id_other_than_the_file_name_is_refused() {
        let error = Fixture::valid()
            .edit(ROOF_FILE, "id = \"common_area_roof\"", "id = \"roof\"")
            .error();
        assert!(
            matches!(error, LegalCatalogueError::IdMismatch { .. }),
            "{error}"
        );
        assert_names_file(&error, ROOF_FILE);
    }

    #[test]
    fn empty_title_is_refused() {
        let error = Fixture::valid()
            .edit(ROOF_FILE, "title = \"Заголовок\"", "title = \"  \"")
            .error();
        assert!(
            matches!(error, LegalCatalogueError::EmptyField { ref field, .. } if field == "title"),
            "{error}"
        );
    }

    #[test]
    fn common_block_with_a_subject_is_refused() {
        let error = Fixture::valid()
            .edit(
                COMMON_FILE_NAME,
                "title = ",
                "subject = \"common_area_roof\"\ntitle = ",
            )
            .error();
        assert!(
            matches!(error, LegalCatalogueError::CommonHasSubject { .. }),
            "{error}"
        );
    }

    #[test]
    fn common_block_with_one_paragraph_is_refused() {
        let error = Fixture::valid()
            .edit(COMMON_FILE_NAME, &format!(", \"{COMMON_PARAGRAPH_2}\""), "")
            .error();
        assert!(
            matches!(
                error,
                LegalCatalogueError::CommonParagraphCount { found: 1, .. }
            ),
            "{error}"
        );
    }

    #[test]
    fn subject_module_without_a_subject_is_refused() {
        let error = Fixture::valid()
            .edit(ROOF_FILE, "subject = \"common_area_roof\"\n", "")
            .error();
        assert!(
            matches!(error, LegalCatalogueError::ModuleWithoutSubject { .. }),
            "{error}"
        );
    }

    #[test]
    fn subject_module_with_two_paragraphs_is_refused() {
        let error = Fixture::valid()
            .edit(
                ROOF_FILE,
                &format!("\"{SUBJECT_PARAGRAPH}\""),
                "\"Первый абзац.\", \"Второй абзац.\"",
            )
            .error();
        assert!(
            matches!(
                error,
                LegalCatalogueError::SubjectParagraphCount { found: 2, .. }
            ),
            "{error}"
        );
    }

    #[test]
    fn second_module_for_a_subject_is_refused() {
        let mut fixture = Fixture::valid();
        fixture.files.push((
            "common_area_roof_again.toml".to_owned(),
            module_text(
                "common_area_roof_again",
                Some(SubjectKind::CommonAreaRoof),
                &[SUBJECT_PARAGRAPH],
            ),
        ));
        fixture.relist();
        let error = fixture.error();
        assert!(
            matches!(
                error,
                LegalCatalogueError::DuplicateSubject {
                    kind: SubjectKind::CommonAreaRoof,
                    ..
                }
            ),
            "{error}"
        );
        assert_names_file(&error, "common_area_roof_again.toml");
    }

    #[test]
    fn subject_module_in_a_file_named_after_another_kind_is_refused() {
        let error = Fixture::valid()
            .edit(
                ROOF_FILE,
                "subject = \"common_area_roof\"",
                "subject = \"common_area_elevator\"",
            )
            .error();
        assert!(
            matches!(error, LegalCatalogueError::SubjectFileNameMismatch { .. }),
            "{error}"
        );
    }

    #[test]
    fn subject_kind_without_a_module_is_refused() {
        let error = Fixture::valid()
            .without("common_area_elevator.toml")
            .error();
        assert_eq!(
            error,
            LegalCatalogueError::MissingSubject {
                kind: SubjectKind::CommonAreaElevator
            }
        );
    }

    #[test]
    fn empty_paragraph_is_refused() {
        let error = Fixture::valid()
            .edit(ROOF_FILE, SUBJECT_PARAGRAPH, " ")
            .error();
        assert!(
            matches!(error, LegalCatalogueError::EmptyParagraph { number: 1, .. }),
            "{error}"
        );
    }

    #[test]
    fn paragraph_with_a_line_break_is_refused() {
        for line_break in ["\\n", "\\r", "\\u2028"] {
            let error = Fixture::valid()
                .edit(
                    ROOF_FILE,
                    "Абзац модуля.",
                    &format!("Абзац{line_break}модуля."),
                )
                .error();
            assert!(
                matches!(error, LegalCatalogueError::MultiLineParagraph { .. }),
                "{line_break}: {error}"
            );
        }
    }

    #[test]
    fn untrimmed_paragraph_is_refused() {
        let error = Fixture::valid()
            .edit(ROOF_FILE, "\"Абзац модуля.\"", "\" Абзац модуля.\"")
            .error();
        assert!(
            matches!(error, LegalCatalogueError::UntrimmedParagraph { .. }),
            "{error}"
        );
    }

    #[test]
    fn paragraph_without_a_final_period_is_refused() {
        let error = Fixture::valid()
            .edit(ROOF_FILE, "Абзац модуля.", "Абзац модуля")
            .error();
        assert!(
            matches!(
                error,
                LegalCatalogueError::ParagraphWithoutFinalPeriod { .. }
            ),
            "{error}"
        );
    }

    #[test]
    fn paragraph_with_a_url_is_refused() {
        for url in ["https://pravo.gov.ru", "WWW.pravo.gov.ru"] {
            let error = Fixture::valid()
                .edit(
                    ROOF_FILE,
                    "Абзац модуля.",
                    &format!("Абзац модуля, см. {url}."),
                )
                .error();
            assert!(
                matches!(error, LegalCatalogueError::UrlInParagraph { .. }),
                "{url}: {error}"
            );
        }
    }

    #[test]
    fn paragraph_with_a_request_is_refused() {
        for request in ["Прошу устранить.", "ПРОШУ устранить.", "Убедительно прошу."]
        {
            let error = Fixture::valid()
                .edit(
                    ROOF_FILE,
                    "Абзац модуля.",
                    &format!("Абзац модуля. {request}"),
                )
                .error();
            assert!(
                matches!(error, LegalCatalogueError::RequestInParagraph { .. }),
                "{request}: {error}"
            );
        }
    }

    #[test]
    fn module_without_sources_is_refused() {
        let error = Fixture::valid()
            .edit(ROOF_FILE, SOURCES_LINE, "sources = []")
            .error();
        assert!(
            matches!(error, LegalCatalogueError::NoSources { .. }),
            "{error}"
        );
    }

    #[test]
    fn source_with_an_empty_edition_is_refused() {
        let error = Fixture::valid()
            .edit(
                ROOF_FILE,
                "edition = \"редакция от 01.01.2026\"",
                "edition = \"\"",
            )
            .error();
        assert!(
            matches!(error, LegalCatalogueError::EmptyField { ref field, .. } if field == "sources[0].edition"),
            "{error}"
        );
    }

    #[test]
    fn date_with_a_time_is_refused() {
        let error = Fixture::valid()
            .edit(
                ROOF_FILE,
                "verified_at = 2026-11-29",
                "verified_at = 2026-11-29T10:00:00",
            )
            .error();
        assert!(
            matches!(error, LegalCatalogueError::InvalidDate { .. }),
            "{error}"
        );
    }

    #[test]
    fn date_written_as_a_string_is_refused() {
        let error = Fixture::valid()
            .edit(
                ROOF_FILE,
                "verified_at = 2026-11-29",
                "verified_at = \"2026-11-29\"",
            )
            .error();
        assert!(matches!(error, LegalCatalogueError::Toml { .. }), "{error}");
    }

    #[test]
    fn valid_through_not_after_verified_at_is_refused() {
        let error = Fixture::valid()
            .edit(
                ROOF_FILE,
                "valid_through = 2027-05-31",
                "valid_through = 2026-11-29",
            )
            .error();
        assert!(
            matches!(
                error,
                LegalCatalogueError::ValidThroughNotAfterVerifiedAt { .. }
            ),
            "{error}"
        );
    }

    #[test]
    fn verified_status_with_pending_checks_is_refused() {
        let error = Fixture::valid()
            .edit(
                ROOF_FILE,
                "awaiting_check = []",
                "awaiting_check = [\"п. 2\"]",
            )
            .error();
        assert!(
            matches!(
                error,
                LegalCatalogueError::VerifiedWithPendingChecks { count: 1, .. }
            ),
            "{error}"
        );
    }

    #[test]
    fn verified_status_with_an_unverified_edition_is_refused() {
        let error = Fixture::valid()
            .edit(
                ROOF_FILE,
                "edition_verified = true",
                "edition_verified = false",
            )
            .error();
        assert!(
            matches!(
                error,
                LegalCatalogueError::VerifiedWithUnverifiedEdition { number: 1, .. }
            ),
            "{error}"
        );
    }

    #[test]
    fn review_status_names_match_serde() {
        for status in [
            ReviewStatus::Verified,
            ReviewStatus::PartiallyVerified,
            ReviewStatus::AwaitingVerification,
        ] {
            let json = serde_json::to_string(&status).unwrap();
            assert_eq!(json, format!("\"{}\"", status.code()));
        }
    }
}
