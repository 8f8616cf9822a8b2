//! Deterministic assembly of the request text.
//!
//! The body is built in a fixed order — problem, circumstances, impact, verification, the common
//! legal block, at most one subject paragraph, then «Прошу:» and exactly one numbered item — and
//! ends there. Normalisation here is presentation only: it trims, joins lines and settles the
//! final punctuation, and never shortens, splits or rewords anything. A body over the limit is
//! refused, never cut.

use serde::{Deserialize, Serialize};

use crate::faithfulness::{FaithfulnessFinding, FaithfulnessReport};
use crate::input::BODY_LIMIT;
use crate::legal::LegalCatalogue;
use crate::policy::{LegalDecision, OmissionReason};
use crate::subject::SubjectKind;
use crate::text::{capitalise_first, char_count, end_as_sentence, join_lines};
use zayavka_codes::stable_codes;

/// The item requested when the resident did not say what they ask for.
pub const GENERIC_ITEM: &str = "Устранить наблюдаемую проблему.";

/// The line that opens the request block.
pub const REQUEST_HEADING: &str = "Прошу:";

/// What separates the sections of the body: one blank line.
const SECTION_SEPARATOR: &str = "\n\n";

stable_codes! {
    /// Who wrote a part of the request.
    pub enum Provenance {
        /// The resident's own words (a request drafted without a model).
        Resident => "resident",
        /// The model's description, checked by the core.
        Model => "model",
        /// The legal catalogue's curated text.
        LegalCatalogue => "legal_catalogue",
        /// Sentences the program wrote from the facts the resident recorded about a filed
        /// request (its dates, number and answer): a follow-up letter's (issue 30).
        RecordedFacts => "recorded_facts",
    }
}

stable_codes! {
    /// Who wrote a request's title (issue 14): shown beside the title in the app and kept with
    /// the request, so that the resident's words are never taken for the model's.
    pub enum TitleSource {
        /// The first words of the resident's description, shortened at a word boundary (a
        /// request drafted without a model).
        Resident => "resident",
        /// The model's title, checked by the core.
        Model => "model",
        /// A fixed title the program chose («Заявка о проблеме в доме»): requests drafted
        /// without a model before their titles were the resident's words. Never made now;
        /// such stored requests read back with it.
        Standard => "standard",
        /// Made by the program from the first request's title or date: a follow-up letter's
        /// (issue 30).
        RecordedFacts => "recorded_facts",
    }
}

stable_codes! {
    /// Which part of the body a section is.
    pub enum SectionKind {
        /// What is observed.
        Problem => "problem",
        /// Where, since when, how often.
        Circumstances => "circumstances",
        /// What it leads to.
        Impact => "impact",
        /// What is unknown and should be checked.
        Verification => "verification",
        /// A paragraph of the legal catalogue.
        Legal => "legal",
    }
}

stable_codes! {
    /// Where the single requested item comes from.
    pub enum ItemSource {
        /// The resident's `desired_actions`, in presentation form.
        ResidentRequest => "resident_request",
        /// The fixed generic item, because the resident asked for nothing specific.
        Generic => "generic",
        /// The fixed item of a complaint to the housing inspectorate: an inspection and measures
        /// (issue 30).
        Inspection => "inspection",
    }
}

/// The descriptive part of a request: written by the model, or taken from the resident's own
/// words when no model is used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DraftText {
    /// Who wrote it.
    pub source: Provenance,
    /// A one-line title.
    pub title: String,
    /// Who wrote the title.
    pub title_source: TitleSource,
    /// What is observed.
    pub problem: String,
    /// Where, since when, how often.
    pub circumstances: Option<String>,
    /// What it leads to.
    pub impact: Option<String>,
    /// What is unknown and should be checked.
    pub verification: Option<String>,
    /// Notes for the resident; not part of the body.
    pub warnings: Vec<String>,
}

/// One paragraph of the body before the request block, with where it came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct Section {
    kind: SectionKind,
    source: Provenance,
    /// The legal module's id (`common` or a subject kind) for a legal paragraph.
    module: Option<String>,
    text: String,
}

impl Section {
    /// Which part of the body this is.
    pub fn kind(&self) -> SectionKind {
        self.kind
    }

    /// Who wrote it.
    pub fn source(&self) -> Provenance {
        self.source
    }

    /// The legal module's id, for a legal paragraph.
    pub fn module(&self) -> Option<&str> {
        self.module.as_deref()
    }

    /// The paragraph as it appears in the body.
    pub fn text(&self) -> &str {
        &self.text
    }
}

/// The single requested item of a request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct RequestItem {
    text: String,
    source: ItemSource,
}

impl RequestItem {
    /// The item for these desired actions: the resident's words in presentation form, or the
    /// generic item when they gave none — never both.
    pub fn for_desired_actions(desired_actions: Option<&str>) -> RequestItem {
        match desired_actions.and_then(request_item_text) {
            Some(text) => RequestItem {
                text,
                source: ItemSource::ResidentRequest,
            },
            None => RequestItem {
                text: GENERIC_ITEM.to_owned(),
                source: ItemSource::Generic,
            },
        }
    }

    /// A fixed item the program chose, with where it comes from.
    pub(crate) fn fixed(text: &str, source: ItemSource) -> RequestItem {
        RequestItem {
            text: text.to_owned(),
            source,
        }
    }

    /// The item as printed after «1. ».
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Where it comes from.
    pub fn source(&self) -> ItemSource {
        self.source
    }
}

/// An assembled request, ready to review: its sections in order, each with its provenance, and
/// exactly one requested item. The body is rendered from them and is never parsed back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    title: String,
    title_source: TitleSource,
    sections: Vec<Section>,
    item: RequestItem,
    subject_module: Option<SubjectKind>,
    legal_omission: Option<OmissionReason>,
    warnings: Vec<String>,
    body: String,
    faithfulness: Vec<FaithfulnessFinding>,
}

impl Request {
    /// The title.
    pub fn title(&self) -> &str {
        &self.title
    }

    /// Who wrote the title.
    pub fn title_source(&self) -> TitleSource {
        self.title_source
    }

    /// The sections before the request block, in order.
    pub fn sections(&self) -> &[Section] {
        &self.sections
    }

    /// The single requested item.
    pub fn item(&self) -> &RequestItem {
        &self.item
    }

    /// The subject whose legal paragraph the body includes.
    pub fn subject_module(&self) -> Option<SubjectKind> {
        self.subject_module
    }

    /// Why no subject paragraph was included.
    pub fn legal_omission(&self) -> Option<OmissionReason> {
        self.legal_omission
    }

    /// Whether a model wrote the description (a request made without one is the resident's
    /// words throughout).
    pub fn written_by_model(&self) -> bool {
        self.sections
            .iter()
            .any(|section| section.source == Provenance::Model)
    }

    /// The legal paragraph's status in one plain Russian sentence, the same on every screen
    /// and in «Как получен результат».
    pub fn legal_status_ru(&self) -> String {
        match (self.subject_module, self.legal_omission) {
            (Some(kind), _) => format!(
                "Добавлен нормативный абзац о теме «{}»: ваш выбор подтверждён текстом.",
                kind.label_ru()
            ),
            (None, Some(OmissionReason::NoModelSubject)) if !self.written_by_model() => {
                "Заявка составлена без модели, поэтому абзац с нормой о виде проблемы не \
                 добавлен."
                    .to_owned()
            }
            (None, Some(reason)) => reason.message_ru().to_owned(),
            (None, None) => "В заявку добавлены только общие нормы о содержании дома.".to_owned(),
        }
    }

    /// Notes for the resident; not part of the body.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// What the expectation-free faithfulness checks found in the model's sentences: words the
    /// resident's text does not hold, each a warning at its sentence (issue 17). Empty for a
    /// request written without a model. The request stays ready: the resident decides.
    pub fn faithfulness(&self) -> &[FaithfulnessFinding] {
        &self.faithfulness
    }

    /// The request with these faithfulness findings.
    pub(crate) fn with_faithfulness(mut self, findings: &FaithfulnessReport) -> Request {
        self.faithfulness = findings.findings().to_vec();
        self
    }

    /// The body: the sections separated by blank lines, then «Прошу:» and «1. » with the item.
    pub fn body(&self) -> &str {
        &self.body
    }

    /// The plain text a resident copies: the title, a blank line, the body.
    pub fn plain_text(&self) -> String {
        format!("{}{SECTION_SEPARATOR}{}", self.title, self.body)
    }

    pub(crate) fn new(
        title: String,
        title_source: TitleSource,
        sections: Vec<Section>,
        item: RequestItem,
        legal: LegalDecision,
        warnings: Vec<String>,
    ) -> Result<Request, BodyTooLong> {
        let body = render_body(&sections, &item);
        let length = char_count(&body);
        if length > BODY_LIMIT {
            return Err(BodyTooLong { length });
        }
        Ok(Request {
            title,
            title_source,
            sections,
            item,
            subject_module: legal.subject(),
            legal_omission: legal.omission(),
            warnings,
            body,
            faithfulness: Vec::new(),
        })
    }
}

fn render_body(sections: &[Section], item: &RequestItem) -> String {
    let mut body = String::new();
    for section in sections {
        body.push_str(&section.text);
        body.push_str(SECTION_SEPARATOR);
    }
    body.push_str(REQUEST_HEADING);
    body.push_str("\n1. ");
    body.push_str(&item.text);
    body
}

/// The serialised form: the rendered `body` and the one-element `items` list that the
/// command-line tool has always printed, then the typed parts.
#[derive(Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "Request"))]
#[serde(deny_unknown_fields)]
struct RequestDocument {
    title: String,
    /// Always written; absent from requests stored before titles had a source (issue 14).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(as = "TitleSource"))]
    title_source: Option<TitleSource>,
    body: String,
    items: Vec<String>,
    subject_module: Option<SubjectKind>,
    legal_omission: Option<OmissionReason>,
    warnings: Vec<String>,
    sections: Vec<Section>,
    item: RequestItem,
    /// Always written; absent from requests stored before the checks ran on every draft
    /// (issue 17), which read as having none.
    #[serde(default)]
    faithfulness: Vec<FaithfulnessFinding>,
}

/// A request's TypeScript declaration is its serialised form's (ADR 39).
#[cfg(feature = "ts")]
impl ts_rs::TS for Request {
    type WithoutGenerics = Request;
    type OptionInnerType = Request;

    fn docs() -> Option<String> {
        <RequestDocument as ts_rs::TS>::docs()
    }

    fn name(cfg: &ts_rs::Config) -> String {
        <RequestDocument as ts_rs::TS>::name(cfg)
    }

    fn inline(cfg: &ts_rs::Config) -> String {
        <RequestDocument as ts_rs::TS>::inline(cfg)
    }

    fn inline_flattened(cfg: &ts_rs::Config) -> String {
        <RequestDocument as ts_rs::TS>::inline_flattened(cfg)
    }

    fn decl(cfg: &ts_rs::Config) -> String {
        <RequestDocument as ts_rs::TS>::decl(cfg)
    }

    fn decl_concrete(cfg: &ts_rs::Config) -> String {
        <RequestDocument as ts_rs::TS>::decl_concrete(cfg)
    }

    fn visit_dependencies(visitor: &mut impl ts_rs::TypeVisitor) {
        <RequestDocument as ts_rs::TS>::visit_dependencies(visitor);
    }

    fn output_path() -> Option<std::path::PathBuf> {
        <RequestDocument as ts_rs::TS>::output_path()
    }
}

impl Serialize for Request {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        RequestDocument {
            title: self.title.clone(),
            title_source: Some(self.title_source),
            body: self.body.clone(),
            items: vec![self.item.text.clone()],
            subject_module: self.subject_module,
            legal_omission: self.legal_omission,
            warnings: self.warnings.clone(),
            sections: self.sections.clone(),
            item: self.item.clone(),
            faithfulness: self.faithfulness.clone(),
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Request {
    /// A stored request is read back through the same checks as a new one: the body must be
    /// exactly what its sections and item render to, and the legal fields must agree.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error as _;
        let document = RequestDocument::deserialize(deserializer)?;
        let legal = match (document.subject_module, document.legal_omission) {
            (Some(kind), None) => LegalDecision::Included(kind),
            (None, Some(reason)) => LegalDecision::Omitted(reason),
            _ => {
                return Err(D::Error::custom(
                    "exactly one of subject_module and legal_omission must be set",
                ));
            }
        };
        // A request starts with its problem section; a follow-up letter (issue 30) with the
        // recorded facts of the first request, which lead into the problem.
        let starts_right = document.sections.first().is_some_and(|first| {
            first.kind == SectionKind::Problem
                || (first.source == Provenance::RecordedFacts
                    && document.title_source == Some(TitleSource::RecordedFacts))
        });
        if !starts_right {
            return Err(D::Error::custom(
                "a request starts with its problem section",
            ));
        }
        if document.items != [document.item.text.clone()] {
            return Err(D::Error::custom("items must hold exactly the one item"));
        }
        // A request stored before titles had a source: the model wrote the title of a
        // model's draft, and a draft without a model had the program's fixed title.
        let title_source = document
            .title_source
            .unwrap_or(match document.sections[0].source {
                Provenance::Model => TitleSource::Model,
                _ => TitleSource::Standard,
            });
        let request = Request::new(
            document.title,
            title_source,
            document.sections,
            document.item,
            legal,
            document.warnings,
        )
        .map_err(D::Error::custom)?
        .with_faithfulness(&FaithfulnessReport::from_findings(document.faithfulness));
        if request.body != document.body {
            return Err(D::Error::custom(
                "the body is not what the sections and the item render to",
            ));
        }
        Ok(request)
    }
}

/// The body would be longer than [`BODY_LIMIT`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the assembled body has {length} characters, more than the limit of {BODY_LIMIT}")]
pub struct BodyTooLong {
    /// The length it would have had.
    pub length: usize,
}

/// The single requested item: the resident's `desired_actions` in presentation form, or the
/// generic item when they gave none — never both.
pub fn request_item(desired_actions: Option<&str>) -> String {
    desired_actions
        .and_then(request_item_text)
        .unwrap_or_else(|| GENERIC_ITEM.to_owned())
}

/// The resident's words in presentation form, or `None` when nothing is left of them.
fn request_item_text(desired_actions: &str) -> Option<String> {
    let text = strip_request_word(strip_request_prefix(desired_actions.trim()));
    let text = join_lines(text);
    (!text.is_empty()).then(|| end_as_sentence(capitalise_first(&text)))
}

/// Removes one leading «Прошу:» in any case, with the white space after it.
fn strip_request_prefix(text: &str) -> &str {
    let mut chars = text.char_indices();
    for expected in REQUEST_HEADING.chars() {
        match chars.next() {
            Some((_, c)) if c.to_lowercase().eq(expected.to_lowercase()) => {}
            _ => return text,
        }
    }
    let rest = chars.next().map_or(text.len(), |(at, _)| at);
    text[rest..].trim_start()
}

/// The request words a resident may open the item with, without a colon, in lower case.
const REQUEST_WORDS: [&str; 2] = ["прошу", "просим"];

/// Removes a leading «Прошу» or «Просим» typed without a colon (issue 17): the heading already
/// says it, and «Прошу: 1. Прошу заменить лампу» reads twice. The word goes only when a space
/// or a comma follows it, with that comma, the spaces and a directly following «вас»; «Прошу
/// прощения» is an apology and stays, as does every other wording («Требую …»).
fn strip_request_word(text: &str) -> &str {
    let Some(word) = REQUEST_WORDS
        .into_iter()
        .find(|word| starts_with_ignoring_case(text, word))
    else {
        return text;
    };
    let rest = &text[word.len()..];
    let Some(after) = rest
        .strip_prefix(',')
        .or_else(|| rest.starts_with(char::is_whitespace).then_some(rest))
    else {
        return text;
    };
    let after = after.trim_start();
    if starts_with_ignoring_case(after, "прощени") {
        return text;
    }
    let after = match after.get(..("вас".len())) {
        Some(head) if head.to_lowercase() == "вас" => {
            let tail = &after["вас".len()..];
            if tail.is_empty() || tail.starts_with(|c: char| c.is_whitespace() || c == ',') {
                tail.trim_start_matches(',').trim_start()
            } else {
                after
            }
        }
        _ => after,
    };
    // Nothing left but the word: the resident's text is kept rather than emptied.
    if after.is_empty() { text } else { after }
}

/// Whether `text` starts with `prefix` (given in lower case), ignoring case.
fn starts_with_ignoring_case(text: &str, prefix: &str) -> bool {
    text.get(..prefix.len())
        .is_some_and(|head| head.to_lowercase() == prefix)
}

/// One descriptive section in presentation form.
fn section(text: &str) -> String {
    end_as_sentence(capitalise_first(&join_lines(text)))
}

/// The catalogue's paragraphs for a request: the common block, then the subject's paragraph
/// when the decision includes it.
pub(crate) fn legal_sections(catalogue: &LegalCatalogue, legal: LegalDecision) -> Vec<Section> {
    let of = |module: &crate::legal::LegalModule| {
        module
            .paragraphs
            .iter()
            .map(|paragraph| Section {
                kind: SectionKind::Legal,
                source: Provenance::LegalCatalogue,
                module: Some(module.id.clone()),
                text: paragraph.clone(),
            })
            .collect::<Vec<_>>()
    };
    let mut sections = of(catalogue.common());
    if let LegalDecision::Included(kind) = legal {
        sections.extend(of(catalogue.subject(kind)));
    }
    sections
}

/// A section the program wrote: `text` as one sentence-ended paragraph.
pub(crate) fn program_section(kind: SectionKind, source: Provenance, text: &str) -> Section {
    Section {
        kind,
        source,
        module: None,
        text: section(text),
    }
}

/// A section the program wrote that leads into the next one: `text` on one line, its colon
/// kept.
pub(crate) fn program_lead(kind: SectionKind, source: Provenance, text: &str) -> Section {
    Section {
        kind,
        source,
        module: None,
        text: join_lines(text),
    }
}

/// Assembles the request. Same arguments, same bytes.
pub fn assemble(
    text: &DraftText,
    legal: LegalDecision,
    desired_actions: Option<&str>,
    catalogue: &LegalCatalogue,
) -> Result<Request, BodyTooLong> {
    let descriptive = |kind: SectionKind, text_of_section: &str| Section {
        kind,
        source: text.source,
        module: None,
        text: section(text_of_section),
    };
    let mut sections = Vec::with_capacity(8);
    sections.push(descriptive(SectionKind::Problem, &text.problem));
    for (kind, optional) in [
        (SectionKind::Circumstances, &text.circumstances),
        (SectionKind::Impact, &text.impact),
        (SectionKind::Verification, &text.verification),
    ] {
        if let Some(optional) = optional.as_deref().filter(|t| !t.trim().is_empty()) {
            sections.push(descriptive(kind, optional));
        }
    }
    sections.extend(legal_sections(catalogue, legal));
    let warnings = text
        .warnings
        .iter()
        .map(|w| join_lines(w))
        .filter(|w| !w.is_empty())
        .collect();
    Request::new(
        join_lines(&text.title),
        text.title_source,
        sections,
        RequestItem::for_desired_actions(desired_actions),
        legal,
        warnings,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_item_is_the_residents_words_in_presentation_form() {
        let cases = [
            ("заменить лампы", "Заменить лампы."),
            ("Прошу: заменить лампы", "Заменить лампы."),
            ("ПРОШУ:заменить лампы", "Заменить лампы."),
            ("прошу:   заменить лампы!", "Заменить лампы!"),
            (
                "  Заменить\r\n лампы\n\n на этаже  ",
                "Заменить лампы на этаже.",
            ),
            ("заменить лампы,", "Заменить лампы."),
            ("заменить лампы;", "Заменить лампы."),
            ("заменить лампы:", "Заменить лампы."),
            ("заменить лампы?", "Заменить лампы?"),
            ("заменить лампы…", "Заменить лампы…"),
            (
                "Только провести осмотр, работы пока не выполнять.",
                "Только провести осмотр, работы пока не выполнять.",
            ),
            // One opening is removed, never two.
            ("Прошу прошу: заменить", "Прошу: заменить."),
            ("Прошу: Прошу: заменить", "Прошу: заменить."),
            // «Прошу» or «Просим» without a colon (issue 17): never «Прошу: 1. Прошу …».
            (
                "Прошу заменить лампу на 3 этаже",
                "Заменить лампу на 3 этаже.",
            ),
            (
                "прошу вас срочно вызвать мастера",
                "Срочно вызвать мастера.",
            ),
            ("ПРОСИМ  восстановить освещение", "Восстановить освещение."),
            (
                "Прошу, уберите, пожалуйста, мусор",
                "Уберите, пожалуйста, мусор.",
            ),
            ("Прошу вас, проверьте подвал", "Проверьте подвал."),
            // An apology, a word that only starts the same, and the word alone stay as typed.
            (
                "Прошу прощения, но лампа не горит",
                "Прошу прощения, но лампа не горит.",
            ),
            ("Прошунов просит заменить", "Прошунов просит заменить."),
            ("Прошу", "Прошу."),
            ("Прошу вас", "Прошу вас."),
            ("Требую заменить лампу", "Требую заменить лампу."),
            ("Прошу васильковую краску", "Васильковую краску."),
        ];
        for (given, expected) in cases {
            assert_eq!(request_item(Some(given)), expected, "{given:?}");
        }
    }

    #[test]
    fn the_generic_item_stands_alone() {
        assert_eq!(request_item(None), GENERIC_ITEM);
        assert_eq!(request_item(Some("Прошу:")), GENERIC_ITEM);
    }

    /// The words of a text, with the case of the first letter and the final punctuation — the
    /// only two things presentation may change — folded away.
    fn comparable_words(text: &str) -> Vec<String> {
        let mut words: Vec<String> = text.split_whitespace().map(str::to_owned).collect();
        if let Some(first) = words.first_mut() {
            *first = first.to_lowercase();
        }
        if let Some(last) = words.last_mut() {
            let trimmed = last.trim_end_matches(['.', ',', ';', ':']).to_owned();
            *last = trimmed;
        }
        words.retain(|w| !w.is_empty());
        words
    }

    proptest::proptest! {
        #[test]
        fn the_item_is_generic_or_keeps_every_word_in_order(
            prefix in "(|Прошу:|ПРОШУ: |прошу:\n)",
            body in "[а-яА-ЯёЁa-z0-9 ,;:.!?…\n\t-]{0,120}",
        ) {
            let desired = format!("{prefix}{body}");
            let item = request_item(Some(&desired));
            if item != GENERIC_ITEM {
                let expected = comparable_words(&body.to_lowercase());
                let actual = comparable_words(&item.to_lowercase());
                proptest::prop_assert_eq!(actual, expected);
                proptest::prop_assert!(item.ends_with(['.', '!', '?', '…']));
                proptest::prop_assert!(!item.contains('\n'));
            } else {
                proptest::prop_assert!(comparable_words(&body).is_empty() || body.trim() == "Устранить наблюдаемую проблему.");
            }
        }
    }

    proptest::proptest! {
        /// Whatever the sections say, the body keeps its shape: the sections first, the two
        /// common paragraphs, then «Прошу:» and exactly one item at the very end — or the whole
        /// body is refused as too long, never cut.
        #[test]
        fn the_body_always_ends_with_the_one_item_or_is_refused_whole(
            problem in "[а-яА-Я ,.]{1,900}",
            circumstances in proptest::option::of("[а-яА-Я ,.]{0,600}"),
            impact in proptest::option::of("[а-яА-Я ,.\n]{0,600}"),
            desired in proptest::option::of("[а-яА-Я ,.:\n]{1,500}"),
            subject in proptest::option::of(proptest::sample::select(SubjectKind::ALL.to_vec())),
        ) {
            let catalogue = crate::legal::catalogue();
            let text = DraftText {
                source: Provenance::Model,
                title: "Заголовок".into(),
                title_source: TitleSource::Model,
                problem,
                circumstances,
                impact,
                verification: None,
                warnings: vec![],
            };
            let legal = subject.map_or(
                LegalDecision::Omitted(OmissionReason::NotConfirmed),
                LegalDecision::Included,
            );
            let first = assemble(&text, legal, desired.as_deref(), catalogue);
            proptest::prop_assert_eq!(&first, &assemble(&text, legal, desired.as_deref(), catalogue));
            match first {
                Ok(request) => {
                    let item = request_item(desired.as_deref());
                    proptest::prop_assert_eq!(request.item().text(), item.as_str());
                    let ending = format!("\n\n{REQUEST_HEADING}\n1. {item}");
                    proptest::prop_assert!(request.body().ends_with(&ending));
                    proptest::prop_assert_eq!(request.body().matches(REQUEST_HEADING).count(), 1);
                    for paragraph in &catalogue.common().paragraphs {
                        proptest::prop_assert!(request.body().contains(paragraph.as_str()));
                    }
                    proptest::prop_assert!(char_count(request.body()) <= BODY_LIMIT);
                }
                Err(BodyTooLong { length }) => proptest::prop_assert!(length > BODY_LIMIT),
            }
        }
    }

    fn lighting_text() -> DraftText {
        DraftText {
            source: Provenance::Model,
            title: "Не работает освещение на лестнице".into(),
            title_source: TitleSource::Model,
            problem: "на лестнице между третьим и четвёртым этажами не горит свет".into(),
            circumstances: Some("Подъезд 2;\nсвет не горит неделю".into()),
            impact: Some("   ".into()),
            verification: Some("Причину нужно установить при осмотре".into()),
            warnings: vec!["Уточните номер подъезда".into(), " \n ".into()],
        }
    }

    fn lighting_request() -> Request {
        assemble(
            &lighting_text(),
            LegalDecision::Included(SubjectKind::CommonAreaPremisesLighting),
            Some("Прошу: заменить лампы"),
            crate::legal::catalogue(),
        )
        .unwrap()
    }

    fn serialised(request: &Request) -> serde_json::Value {
        serde_json::to_value(request).unwrap()
    }

    fn read_back(value: serde_json::Value) -> Result<Request, serde_json::Error> {
        serde_json::from_value(value)
    }

    #[test]
    fn a_request_serialises_with_its_keys_in_a_fixed_order() {
        let value = serialised(&lighting_request());
        let keys: Vec<&str> = value
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys,
            [
                "title",
                "title_source",
                "body",
                "items",
                "subject_module",
                "legal_omission",
                "warnings",
                "sections",
                "item",
                "faithfulness"
            ]
        );
        assert_eq!(value["items"], serde_json::json!(["Заменить лампы."]));
        assert_eq!(
            value["item"],
            serde_json::json!({"text": "Заменить лампы.", "source": "resident_request"})
        );
        assert_eq!(value["subject_module"], "common_area_premises_lighting");
        assert_eq!(value["legal_omission"], serde_json::Value::Null);
        assert_eq!(
            value["warnings"],
            serde_json::json!(["Уточните номер подъезда"])
        );
        assert_eq!(
            value["sections"][0],
            serde_json::json!({
                "kind": "problem",
                "source": "model",
                "module": null,
                "text": "На лестнице между третьим и четвёртым этажами не горит свет.",
            })
        );
    }

    #[test]
    fn the_body_is_the_sections_joined_by_blank_lines_then_the_one_item() {
        let request = lighting_request();
        let catalogue = crate::legal::catalogue();
        let texts: Vec<&str> = request.sections().iter().map(Section::text).collect();
        assert_eq!(
            request.body(),
            format!(
                "{}\n\nПрошу:\n1. {}",
                texts.join("\n\n"),
                request.item().text()
            )
        );
        // The blank impact is left out; the rest keep their order and presentation form.
        let kinds: Vec<SectionKind> = request.sections().iter().map(Section::kind).collect();
        let legal_count = catalogue.common().paragraphs.len()
            + catalogue
                .subject(SubjectKind::CommonAreaPremisesLighting)
                .paragraphs
                .len();
        let mut expected = vec![
            SectionKind::Problem,
            SectionKind::Circumstances,
            SectionKind::Verification,
        ];
        expected.extend(std::iter::repeat_n(SectionKind::Legal, legal_count));
        assert_eq!(kinds, expected);
        assert_eq!(texts[1], "Подъезд 2; свет не горит неделю.");
        assert_eq!(
            request.plain_text(),
            format!("Не работает освещение на лестнице\n\n{}", request.body())
        );
    }

    #[test]
    fn issue_14_title_sources_have_stable_codes() {
        zayavka_codes::check_stable_codes::<TitleSource>().unwrap();
        assert_eq!(serialised(&lighting_request())["title_source"], "model");
    }

    /// Requests stored before titles had a source read back with the source they had: the
    /// model's title for a model's draft, the program's fixed title for one without a model.
    #[test]
    fn issue_14_a_request_stored_without_a_title_source_reads_back_with_the_one_it_had() {
        let mut value = serialised(&lighting_request());
        value.as_object_mut().unwrap().remove("title_source");
        assert_eq!(read_back(value).unwrap().title_source(), TitleSource::Model);

        let offline = DraftText {
            source: Provenance::Resident,
            title: "Заявка о проблеме в доме".into(),
            title_source: TitleSource::Resident,
            ..lighting_text()
        };
        let request = assemble(
            &offline,
            LegalDecision::Omitted(OmissionReason::NoModelSubject),
            None,
            crate::legal::catalogue(),
        )
        .unwrap();
        let mut value = serialised(&request);
        assert_eq!(value["title_source"], "resident");
        value.as_object_mut().unwrap().remove("title_source");
        let old = read_back(value).unwrap();
        assert_eq!(old.title_source(), TitleSource::Standard);
        assert_eq!(old.title(), "Заявка о проблеме в доме");
        assert_eq!(serialised(&old)["title_source"], "standard");
    }

    #[test]
    fn a_serialised_request_reads_back_equal() {
        for legal in [
            LegalDecision::Included(SubjectKind::CommonAreaPremisesLighting),
            LegalDecision::Omitted(OmissionReason::EvidenceNotVerbatim),
        ] {
            for desired in [Some("заменить лампы"), None] {
                let request =
                    assemble(&lighting_text(), legal, desired, crate::legal::catalogue()).unwrap();
                let text = serde_json::to_string(&request).unwrap();
                let back: Request = serde_json::from_str(&text).unwrap();
                assert_eq!(back, request);
                assert_eq!(serde_json::to_string(&back).unwrap(), text);
            }
        }
    }

    /// Reading back a tampered document fails with a message that contains `expected`.
    fn refused(value: serde_json::Value, expected: &str) {
        let error = read_back(value).expect_err("a tampered request must be refused");
        assert!(error.to_string().contains(expected), "{error}");
    }

    #[test]
    fn a_tampered_body_is_refused() {
        let mut value = serialised(&lighting_request());
        let body = value["body"].as_str().unwrap().replace("Прошу:", "Требую:");
        value["body"] = body.into();
        refused(
            value,
            "the body is not what the sections and the item render to",
        );

        let mut value = serialised(&lighting_request());
        let body = format!(
            "{}\n2. Выплатить компенсацию.",
            value["body"].as_str().unwrap()
        );
        value["body"] = body.into();
        refused(value, "the body is not what");
    }

    #[test]
    fn an_items_list_other_than_the_one_item_is_refused() {
        for items in [
            serde_json::json!(["Заменить лампы.", "Выплатить компенсацию."]),
            serde_json::json!([]),
            serde_json::json!(["Выплатить компенсацию."]),
        ] {
            let mut value = serialised(&lighting_request());
            value["items"] = items;
            refused(value, "items must hold exactly the one item");
        }
    }

    #[test]
    fn exactly_one_of_subject_module_and_legal_omission_is_required() {
        let mut both = serialised(&lighting_request());
        both["legal_omission"] = "not_confirmed".into();
        let mut neither = serialised(&lighting_request());
        neither["subject_module"] = serde_json::Value::Null;
        for value in [both, neither] {
            refused(
                value,
                "exactly one of subject_module and legal_omission must be set",
            );
        }
    }

    #[test]
    fn a_request_that_does_not_start_with_its_problem_is_refused() {
        let mut swapped = serialised(&lighting_request());
        swapped["sections"].as_array_mut().unwrap().swap(0, 1);
        let mut without_problem = serialised(&lighting_request());
        without_problem["sections"]
            .as_array_mut()
            .unwrap()
            .remove(0);
        let mut empty = serialised(&lighting_request());
        empty["sections"] = serde_json::json!([]);
        for value in [swapped, without_problem, empty] {
            refused(value, "a request starts with its problem section");
        }
    }

    #[test]
    fn an_unknown_field_or_an_over_long_body_is_refused_on_reading() {
        let mut extra = serialised(&lighting_request());
        extra["items_extra"] = serde_json::json!(["Выплатить компенсацию."]);
        refused(extra, "unknown field");

        // A stored request obeys the limit too, even when its body matches its sections.
        let mut value = serialised(&lighting_request());
        value["sections"][0]["text"] = "Я".repeat(BODY_LIMIT).into();
        refused(value, "more than the limit of 2500");
    }

    #[test]
    fn assembly_gives_the_same_bytes_every_time() {
        let first = serde_json::to_vec(&lighting_request()).unwrap();
        let second = serde_json::to_vec(&lighting_request()).unwrap();
        assert_eq!(first, second);
    }
}
