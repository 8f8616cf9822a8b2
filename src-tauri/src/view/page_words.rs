//! The Russian words the page shows that Rust decides, kept in `ui/js/rust-words.js` so that
//! the page has them before any command answers (the form's subject choices, the field labels,
//! the item's heading). The file is generated from the Rust crates by the test below, which
//! rewrites it and fails whenever it differs, so a change of wording in Rust reaches the page
//! in the same commit (the way rust-analyzer keeps its generated sources).

#![cfg(test)]

use std::fmt::Write as _;
use std::path::PathBuf;

use zayavka_engine::{
    AnswerResult, FilingMethod, InputField, REQUEST_HEADING, SubjectKind, method_ru, result_ru,
};

/// A JavaScript string literal of `text`: JSON's string syntax is JavaScript's.
fn js(text: &str) -> String {
    serde_json::to_string(text).expect("a string serialises")
}

/// The module's text.
fn page_words() -> String {
    let mut out = String::from(
        "// The Russian words the page shows that Rust decides. Generated from the Rust crates by\n\
         // the test `view::page_words` of zayavka-desktop (`cargo test -p zayavka-desktop\n\
         // page_words`), which rewrites this file when they change: do not edit it by hand.\n\n\
         /** @import { AnswerResult, FilingMethod, SubjectKind } from './ipc-contract.js' */\n\n",
    );
    out.push_str(
        "/**\n * The subject kinds: the core's short names and scopes (`SubjectKind::label_ru`, \
         `scope_ru`).\n * @type {ReadonlyArray<{ kind: SubjectKind, label: string, hint: string }>}\n \
         */\nexport const SUBJECTS = [\n",
    );
    for &kind in SubjectKind::ALL {
        let _ = write!(
            out,
            "  {{\n    kind: {},\n    label: {},\n    hint: {},\n  }},\n",
            js(kind.code()),
            js(kind.label_ru()),
            js(kind.scope_ru())
        );
    }
    out.push_str("];\n\n/** The form's field labels (`InputField::label_ru`). */\n");
    out.push_str("export const FIELD_LABELS = {\n");
    for &field in InputField::ALL {
        let _ = writeln!(out, "  {}: {},", field.code(), js(field.label_ru()));
    }
    out.push_str("};\n\n/** The heading of a request's one item (`REQUEST_HEADING`). */\n");
    let _ = writeln!(
        out,
        "export const REQUEST_HEADING = {};",
        js(REQUEST_HEADING)
    );
    out.push_str(
        "\n/**\n * How a request was filed, in the order the filing form offers them (`method_ru`).\n \
         * @type {ReadonlyArray<{ code: FilingMethod, label: string }>}\n */\n\
         export const FILING_METHODS = [\n",
    );
    for &method in FilingMethod::ALL {
        let _ = writeln!(
            out,
            "  {{ code: {}, label: {} }},",
            js(method.code()),
            js(method_ru(method))
        );
    }
    out.push_str(
        "];\n\n/**\n * What an answer did about the problem (`result_ru`).\n * @type \
         {ReadonlyArray<{ code: AnswerResult, label: string }>}\n */\n",
    );
    out.push_str("export const ANSWER_RESULTS = [\n");
    for &result in AnswerResult::ALL {
        let _ = writeln!(
            out,
            "  {{ code: {}, label: {} }},",
            js(result.code()),
            js(result_ru(result))
        );
    }
    out.push_str("];\n");
    out
}

#[test]
fn the_page_s_rust_words_are_the_crates_own() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../ui/js/rust-words.js");
    let expected = page_words();
    let actual = std::fs::read_to_string(&path).unwrap_or_default();
    if actual != expected {
        std::fs::write(&path, &expected).expect("the page's folder is writable");
        panic!(
            "{} did not match the Rust crates' words and has been regenerated: review and \
             commit it",
            path.display()
        );
    }
}
