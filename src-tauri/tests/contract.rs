//! The page's contract (issue 39, ADR 39): the committed TypeScript declarations are exactly
//! what the Rust types generate today, and the list of commands names each argument as `ipc`
//! does (the compiler holds the types and their order; Tauri matches the names at run time).

use std::collections::BTreeMap;
use std::path::PathBuf;

use zayavka_desktop::contract::{TYPESCRIPT_PATH, typescript};

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_committed_typescript_is_what_the_rust_types_generate() {
    let path = crate_dir().join(TYPESCRIPT_PATH);
    let generated = typescript();
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != generated {
        // As `rust-words.js` is: written again at once, so the type checker can show what the
        // page must change; the test still fails until the new file is reviewed and committed.
        std::fs::write(&path, &generated).expect("the page's folder is writable");
        let first = committed
            .lines()
            .zip(generated.lines())
            .position(|(old, new)| old != new)
            .map_or_else(
                || "one file ends earlier".to_owned(),
                |line| format!("first difference at line {}", line + 1),
            );
        panic!(
            "{} was not what the Rust types generate ({first}) and has been regenerated: run \
             the type checker (bash tests/ui/typecheck.sh) to see what the page must change, \
             then review and commit it",
            path.display()
        );
    }
}

/// Each command's arguments, by name, as `src/ipc.rs` declares them (what Tauri hands the
/// command itself left out).
fn ipc_arguments() -> BTreeMap<String, Vec<String>> {
    let source = std::fs::read_to_string(crate_dir().join("src/ipc.rs")).unwrap();
    let mut commands = BTreeMap::new();
    for piece in source.split("#[tauri::command]").skip(1) {
        let signature = &piece[piece.find("fn ").unwrap() + 3..];
        let (name, rest) = signature.split_once('(').unwrap();
        let parameters = &rest[..rest.find(')').unwrap()];
        let names = parameters
            .split(',')
            .filter_map(|parameter| parameter.split_once(':'))
            .map(|(name, ty)| (name.trim().to_owned(), ty.trim()))
            .filter(|(_, ty)| !matches!(*ty, "AppHandle" | "WebviewWindow"))
            .map(|(name, _)| name)
            .collect();
        commands.insert(name.trim().to_owned(), names);
    }
    commands
}

/// Each command's arguments, by name, as `src/command_names.rs` lists them.
fn listed_arguments() -> BTreeMap<String, Vec<String>> {
    let source = std::fs::read_to_string(crate_dir().join("src/command_names.rs")).unwrap();
    let body = &source[source.find("commands! {").unwrap()..];
    let mut commands = BTreeMap::new();
    for line in body.lines().skip(1) {
        let line = line.trim();
        let Some((name, rest)) = line.split_once('[') else {
            continue;
        };
        let arguments = &rest[rest.find('(').unwrap() + 1..rest.rfind(") ->").unwrap()];
        let names = arguments
            .split([',', ';'])
            .filter_map(|argument| argument.split_once(':'))
            .map(|(name, _)| name.trim().to_owned())
            .collect();
        commands.insert(name.to_owned(), names);
    }
    commands
}

#[test]
fn the_list_names_every_argument_as_the_command_does() {
    let listed = listed_arguments();
    assert_eq!(listed.len(), zayavka_desktop::COMMANDS.len());
    assert_eq!(listed, ipc_arguments());
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &std::path::Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

/// ts-rs makes a field optional only when serde may both skip and default it; a field the page
/// receives and serde skips when it is `None` is absent, not `null`, and must say so with
/// `#[ts(optional)]`, or the page would be typed to test for a `null` that never comes.
#[test]
fn a_field_serde_leaves_out_is_optional_in_the_page_s_types() {
    let mut files = Vec::new();
    rust_files(&crate_dir().join("src"), &mut files);
    rust_files(&crate_dir().join("../crates"), &mut files);
    let mut untyped = Vec::new();
    for file in files {
        let source = std::fs::read_to_string(&file).unwrap();
        let lines: Vec<&str> = source.lines().collect();
        for (index, line) in lines.iter().enumerate() {
            if !line.contains("skip_serializing_if") {
                continue;
            }
            // The item the field belongs to: the nearest struct or enum above it, and its
            // attributes.
            let Some(item) = (0..index)
                .rev()
                .find(|&i| lines[i].contains("struct ") || lines[i].contains("enum "))
            else {
                continue;
            };
            let attributes_start = (0..item)
                .rev()
                .find(|&i| !lines[i].trim_start().starts_with('#'))
                .map_or(0, |i| i + 1);
            let crosses = lines[attributes_start..item]
                .iter()
                .any(|attribute| attribute.contains("ts_rs::TS"));
            let optional = lines[index + 1..(index + 3).min(lines.len())]
                .iter()
                .chain(std::iter::once(line))
                .any(|near| near.contains("ts(optional"));
            if crosses && !optional {
                untyped.push(format!("{}:{}", file.display(), index + 1));
            }
        }
    }
    assert!(
        untyped.is_empty(),
        "skipped when None, but not optional: {untyped:?}"
    );
}
