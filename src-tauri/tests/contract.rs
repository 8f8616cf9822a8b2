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
    if std::env::var_os("ZAYAVKA_WRITE_CONTRACT").is_some() {
        std::fs::write(&path, &generated).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != generated {
        let first = committed
            .lines()
            .zip(generated.lines())
            .position(|(old, new)| old != new)
            .map_or_else(
                || "one file ends earlier".to_owned(),
                |line| format!("first difference at line {}", line + 1),
            );
        panic!(
            "{} is not what the Rust types generate ({first}). Run \
             ZAYAVKA_WRITE_CONTRACT=1 cargo test -p zayavka-desktop --test contract, then \
             let the type checker (tests/ui/typecheck.sh) show what the page must change.",
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
