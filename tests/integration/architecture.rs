//! The workspace's architecture rules, checked against the real manifests and sources.
//!
//! ARCHITECTURE.md states which crate may depend on which; these tests hold the workspace to it
//! so that a rule cannot be broken by one line in a `Cargo.toml`:
//!
//! - `zayavka-codes`, the shared crate of stable codes, depends on serde alone (and, with its
//!   `ts` feature, on ts-rs, to declare its sets for the desktop page: ADR 39); it is the one
//!   Zayavka crate every other may use;
//! - `zayavka-core` and `zayavka-llm` depend on no other Zayavka crate but `zayavka-codes`;
//! - `zayavka-store` depends on no other Zayavka crate but `zayavka-codes`;
//! - only `zayavka-llm` depends on an HTTP client crate;
//! - only `zayavka-store` depends on an SQL crate, and only its sources contain SQL statements;
//! - `tauri` and `tauri-*` crates appear only in a package whose manifest lives under
//!   `src-tauri/`;
//! - the command-line tool depends on no HTTP crate and no SQL crate directly;
//! - `zayavka-core` and `zayavka-document` depend on nothing that does IO or draws randomness
//!   (the document crate on no other Zayavka crate either), and their sources read no file, no
//!   environment, no clock and no randomness: they are pure;
//! - only `zayavka-document` depends on an image crate: it alone decodes photos;
//! - the drafts database's handle never leaves the engine: its root re-exports no `Store` and
//!   no public method of `Engine` gives or takes one.
//!
//! The dependency rules read the normal and build dependencies of every workspace member from
//! `cargo metadata`; dev-dependencies are free, because tests may start servers and open
//! databases. They also keep the list of `ZAYAVKA_*` variables the integration tests clear in
//! step with the sources.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::support::{ZAYAVKA_VARIABLES, files_under, zayavka};

/// Crates that make or serve HTTP requests: only `zayavka-llm` may depend on one.
const HTTP_CRATES: &[&str] = &[
    "reqwest",
    "hyper",
    "hyper-util",
    "h2",
    "h3",
    "ureq",
    "isahc",
    "surf",
    "attohttpc",
    "curl",
    "awc",
    "http-client",
];

/// Crates that talk to a database: only `zayavka-store` may depend on one.
const SQL_CRATES: &[&str] = &[
    "rusqlite",
    "libsqlite3-sys",
    "sqlite",
    "sqlx",
    "diesel",
    "sea-orm",
];

/// Crates that decode images: only `zayavka-document` may depend on one (ADR 18: one place
/// cleans and checks every photo).
const IMAGE_CRATES: &[&str] = &[
    "image",
    "png",
    "jpeg-decoder",
    "zune-jpeg",
    "zune-png",
    "zune-image",
    "gif",
    "image-webp",
    "tiff",
    "kamadak-exif",
    "exif",
    "img-parts",
];

/// Crates that do IO, keep state outside a value or draw randomness — files, sockets,
/// processes, the keyring, a runtime, random numbers — which the pure `zayavka-core` and
/// `zayavka-document` may not depend on.
const IO_CRATES: &[&str] = &[
    "tokio",
    "keyring",
    "directories",
    "tempfile",
    "tracing",
    "governor",
    "rand",
    "getrandom",
    "fastrand",
];

/// What a pure crate's sources may not name: the file system, the network, processes, the
/// environment, the clock and randomness.
const IMPURE_NAMES: &[&str] = &[
    "std::fs",
    "std::net",
    "std::process",
    "std::env",
    "std::time",
    "SystemTime",
    "Instant",
    "Zoned::now",
    "Timestamp::now",
    "Date::today",
    "File::",
    "rand::",
    "getrandom",
];

/// `ZAYAVKA_*` names that only tests and test scripts read, never the binary, so the integration
/// tests need not clear them.
const READ_ONLY_BY_TESTS: &[&str] = &[
    // Marks the child process of the engine's keyring unit test.
    "ZAYAVKA_TEST_CHILD_WITHOUT_DBUS",
    // Set by `keyring-session.sh`; `keyring.rs` runs only inside that throw-away session.
    "ZAYAVKA_THROWAWAY_KEYRING",
];

/// One workspace member as far as the dependency rules care.
#[derive(Debug)]
struct Package {
    name: String,
    /// The manifest's path relative to the workspace root, with `/` separators.
    manifest: String,
    /// The package names of its normal and build dependencies.
    dependencies: Vec<String>,
}

impl Package {
    fn new(name: &str, manifest: &str, dependencies: &[&str]) -> Package {
        Package {
            name: name.to_owned(),
            manifest: manifest.to_owned(),
            dependencies: dependencies.iter().map(|name| (*name).to_owned()).collect(),
        }
    }

    fn manifest_is_under_src_tauri(&self) -> bool {
        Path::new(&self.manifest)
            .components()
            .any(|component| component == Component::Normal("src-tauri".as_ref()))
    }
}

/// One rule over a dependency edge: its statement and whether `package → dependency` breaks it.
struct Rule {
    statement: &'static str,
    breaks: fn(&Package, &str) -> bool,
}

fn is_zayavka_crate(name: &str) -> bool {
    name.starts_with("zayavka-")
}

/// The shared crate of stable codes (ADR 32): a macro and one check, with no behaviour of its
/// own, which every crate may use — even those that may use no other Zayavka crate.
const CODES_CRATE: &str = "zayavka-codes";

/// A Zayavka crate with behaviour: any but the shared crate of codes.
fn is_zayavka_crate_with_behaviour(name: &str) -> bool {
    is_zayavka_crate(name) && name != CODES_CRATE
}

fn is_http_crate(name: &str) -> bool {
    HTTP_CRATES.contains(&name)
}

fn is_sql_crate(name: &str) -> bool {
    SQL_CRATES.contains(&name)
}

fn is_image_crate(name: &str) -> bool {
    IMAGE_CRATES.contains(&name)
}

fn is_io_crate(name: &str) -> bool {
    IO_CRATES.contains(&name) || is_http_crate(name) || is_sql_crate(name)
}

fn is_tauri_crate(name: &str) -> bool {
    name == "tauri" || name.starts_with("tauri-")
}

const RULES: &[Rule] = &[
    Rule {
        statement: "zayavka-codes depends on serde alone (and ts-rs for the page's types)",
        breaks: |package, dependency| {
            package.name == CODES_CRATE && !matches!(dependency, "serde" | "ts-rs")
        },
    },
    Rule {
        statement: "zayavka-core and zayavka-llm depend on no other Zayavka crate but zayavka-codes",
        breaks: |package, dependency| {
            matches!(package.name.as_str(), "zayavka-core" | "zayavka-llm")
                && is_zayavka_crate_with_behaviour(dependency)
        },
    },
    Rule {
        statement: "zayavka-core is pure: nothing that does IO",
        breaks: |package, dependency| package.name == "zayavka-core" && is_io_crate(dependency),
    },
    Rule {
        statement: "zayavka-store depends on no other Zayavka crate but zayavka-codes",
        breaks: |package, dependency| {
            package.name == "zayavka-store" && is_zayavka_crate_with_behaviour(dependency)
        },
    },
    Rule {
        statement: "only zayavka-llm speaks HTTP",
        breaks: |package, dependency| package.name != "zayavka-llm" && is_http_crate(dependency),
    },
    Rule {
        statement: "only zayavka-store knows SQL",
        breaks: |package, dependency| package.name != "zayavka-store" && is_sql_crate(dependency),
    },
    Rule {
        statement: "tauri only in a package under src-tauri/",
        breaks: |package, dependency| {
            is_tauri_crate(dependency) && !package.manifest_is_under_src_tauri()
        },
    },
    Rule {
        statement: "the command-line tool depends on no HTTP or SQL crate directly",
        breaks: |package, dependency| {
            package.name == "zayavka-cli" && (is_http_crate(dependency) || is_sql_crate(dependency))
        },
    },
    Rule {
        statement: "a front end depends on zayavka-engine alone among the Zayavka crates",
        breaks: |package, dependency| {
            (package.name == "zayavka-cli" || package.manifest_is_under_src_tauri())
                && is_zayavka_crate(dependency)
                && dependency != "zayavka-engine"
        },
    },
    Rule {
        statement: "zayavka-document is pure: no other Zayavka crate but zayavka-codes, nothing that does IO",
        breaks: |package, dependency| {
            package.name == "zayavka-document"
                && (is_zayavka_crate_with_behaviour(dependency) || is_io_crate(dependency))
        },
    },
    Rule {
        statement: "only zayavka-document decodes images",
        breaks: |package, dependency| {
            package.name != "zayavka-document" && is_image_crate(dependency)
        },
    },
];

/// Every broken rule, one line per offending edge, naming the rule and the edge.
fn dependency_rule_violations(packages: &[Package]) -> Vec<String> {
    let mut violations = Vec::new();
    for package in packages {
        for dependency in &package.dependencies {
            for rule in RULES {
                if (rule.breaks)(package, dependency) {
                    violations.push(format!(
                        "rule «{}» broken by {} → {} (in {})",
                        rule.statement, package.name, dependency, package.manifest
                    ));
                }
            }
        }
    }
    violations
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the workspace root exists")
}

/// The workspace members and their non-dev dependencies, from `cargo metadata`.
///
/// `--no-deps` is enough, because each member lists its own dependencies; it also means the
/// command reads only the manifests and needs neither the lock file resolved nor the network.
fn workspace_packages() -> Vec<Package> {
    let root = workspace_root();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--offline",
            "--no-deps",
        ])
        .arg("--manifest-path")
        .arg(root.join("Cargo.toml"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: Value = serde_json::from_slice(&output.stdout).expect("the metadata is JSON");
    let members: BTreeSet<&str> = metadata["workspace_members"]
        .as_array()
        .expect("workspace_members is a list")
        .iter()
        .map(|id| id.as_str().expect("a package id is text"))
        .collect();
    metadata["packages"]
        .as_array()
        .expect("packages is a list")
        .iter()
        .filter(|package| members.contains(package["id"].as_str().unwrap_or_default()))
        .map(|package| {
            let manifest = Path::new(package["manifest_path"].as_str().expect("a manifest path"));
            let manifest = manifest.strip_prefix(&root).unwrap_or(manifest);
            let dependencies = package["dependencies"]
                .as_array()
                .expect("dependencies is a list")
                .iter()
                // `kind` is null for a normal dependency, "build" or "dev" otherwise.
                .filter(|dependency| dependency["kind"].as_str() != Some("dev"))
                .map(|dependency| {
                    dependency["name"]
                        .as_str()
                        .expect("a dependency name")
                        .to_owned()
                })
                .collect();
            Package {
                name: package["name"].as_str().expect("a package name").to_owned(),
                manifest: manifest.to_string_lossy().replace('\\', "/"),
                dependencies,
            }
        })
        .collect()
}

#[test]
#[cfg_attr(
    windows,
    ignore = "on Windows: asks `cargo metadata`, which a Windows process under Wine cannot start; the rules hold on every platform alike and the Linux run checks them"
)]
fn the_workspace_keeps_its_dependency_rules() {
    let packages = workspace_packages();
    let names: BTreeSet<&str> = packages
        .iter()
        .map(|package| package.name.as_str())
        .collect();
    // A renamed crate would otherwise make its rules check nothing.
    for expected in [
        "zayavka-core",
        "zayavka-llm",
        "zayavka-store",
        "zayavka-document",
        "zayavka-engine",
        "zayavka-cli",
    ] {
        assert!(
            names.contains(expected),
            "{expected} is not a workspace member: {names:?}"
        );
    }
    // The edges are really read: the HTTP and SQL crates are seen where they belong.
    let dependencies_of = |name: &str| {
        &packages
            .iter()
            .find(|package| package.name == name)
            .expect("the package is a member")
            .dependencies
    };
    assert!(
        dependencies_of("zayavka-llm")
            .iter()
            .any(|name| is_http_crate(name))
    );
    assert!(
        dependencies_of("zayavka-store")
            .iter()
            .any(|name| is_sql_crate(name))
    );
    assert!(
        dependencies_of("zayavka-document")
            .iter()
            .any(|name| is_image_crate(name))
    );

    let violations = dependency_rule_violations(&packages);
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

#[test]
fn each_dependency_rule_names_the_rule_and_the_edge_it_breaks() {
    let packages = [
        Package::new(
            "zayavka-core",
            "crates/zayavka-core/Cargo.toml",
            &["zayavka-engine", "rand"],
        ),
        Package::new(
            "zayavka-llm",
            "crates/zayavka-llm/Cargo.toml",
            &["reqwest", "zayavka-core"],
        ),
        Package::new(
            "zayavka-store",
            "crates/zayavka-store/Cargo.toml",
            &["rusqlite", "zayavka-codes", "zayavka-core"],
        ),
        Package::new(
            "zayavka-codes",
            "crates/zayavka-codes/Cargo.toml",
            &["serde", "zayavka-core"],
        ),
        Package::new(
            "zayavka-engine",
            "crates/zayavka-engine/Cargo.toml",
            &["ureq", "libsqlite3-sys"],
        ),
        Package::new(
            "zayavka-desktop",
            "crates/zayavka-desktop/Cargo.toml",
            &["tauri-plugin-shell"],
        ),
        Package::new(
            "zayavka-app",
            "src-tauri/Cargo.toml",
            &["tauri", "zayavka-engine"],
        ),
        Package::new(
            "zayavka-cli",
            "crates/zayavka-cli/Cargo.toml",
            &["hyper", "zayavka-engine", "zayavka-store"],
        ),
        Package::new(
            "zayavka-desktop",
            "src-tauri/Cargo.toml",
            &["zayavka-engine", "zayavka-llm"],
        ),
        Package::new(
            "zayavka-document",
            "crates/zayavka-document/Cargo.toml",
            &["image", "zayavka-core", "tempfile"],
        ),
        Package::new(
            "zayavka-engine",
            "crates/zayavka-engine/Cargo.toml",
            &["zayavka-document", "png"],
        ),
    ];
    let violations = dependency_rule_violations(&packages);
    assert_eq!(
        violations,
        [
            "rule «zayavka-core and zayavka-llm depend on no other Zayavka crate but \
             zayavka-codes» broken by zayavka-core → zayavka-engine \
             (in crates/zayavka-core/Cargo.toml)",
            "rule «zayavka-core is pure: nothing that does IO» broken by zayavka-core → rand \
             (in crates/zayavka-core/Cargo.toml)",
            "rule «zayavka-core and zayavka-llm depend on no other Zayavka crate but \
             zayavka-codes» broken by zayavka-llm → zayavka-core \
             (in crates/zayavka-llm/Cargo.toml)",
            "rule «zayavka-store depends on no other Zayavka crate but zayavka-codes» broken by \
             zayavka-store → zayavka-core (in crates/zayavka-store/Cargo.toml)",
            "rule «zayavka-codes depends on serde alone (and ts-rs for the page's types)» broken \
             by zayavka-codes → zayavka-core (in crates/zayavka-codes/Cargo.toml)",
            "rule «only zayavka-llm speaks HTTP» broken by zayavka-engine → ureq \
             (in crates/zayavka-engine/Cargo.toml)",
            "rule «only zayavka-store knows SQL» broken by zayavka-engine → libsqlite3-sys \
             (in crates/zayavka-engine/Cargo.toml)",
            "rule «tauri only in a package under src-tauri/» broken by zayavka-desktop → \
             tauri-plugin-shell (in crates/zayavka-desktop/Cargo.toml)",
            "rule «only zayavka-llm speaks HTTP» broken by zayavka-cli → hyper \
             (in crates/zayavka-cli/Cargo.toml)",
            "rule «the command-line tool depends on no HTTP or SQL crate directly» broken by \
             zayavka-cli → hyper (in crates/zayavka-cli/Cargo.toml)",
            "rule «a front end depends on zayavka-engine alone among the Zayavka crates» \
             broken by zayavka-cli → zayavka-store (in crates/zayavka-cli/Cargo.toml)",
            "rule «a front end depends on zayavka-engine alone among the Zayavka crates» \
             broken by zayavka-desktop → zayavka-llm (in src-tauri/Cargo.toml)",
            "rule «zayavka-document is pure: no other Zayavka crate but zayavka-codes, nothing \
             that does IO» broken by zayavka-document → zayavka-core \
             (in crates/zayavka-document/Cargo.toml)",
            "rule «zayavka-document is pure: no other Zayavka crate but zayavka-codes, nothing \
             that does IO» broken by zayavka-document → tempfile \
             (in crates/zayavka-document/Cargo.toml)",
            "rule «only zayavka-document decodes images» broken by zayavka-engine → png \
             (in crates/zayavka-engine/Cargo.toml)",
        ]
    );
}

/// Each name of [`IMPURE_NAMES`] in `text` as `line: name`, outside comments and outside the
/// crate's `#[cfg(test)]` modules (a test may read a fixture).
fn impure_names_in(text: &str) -> Vec<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or_default();
    let mut found = Vec::new();
    for (index, line) in code.lines().enumerate() {
        let line = line.split("//").next().unwrap_or_default();
        for name in IMPURE_NAMES {
            if line.contains(name) {
                found.push(format!("{}: {name}", index + 1));
            }
        }
    }
    found
}

/// What `check` finds in each Rust source file under `dirs` (folders of the workspace), each
/// finding prefixed with the file's path. Every folder must hold sources, so a moved folder
/// cannot make a check pass by finding nothing.
fn findings_in_sources(dirs: &[&str], check: impl Fn(&str) -> Vec<String>) -> Vec<String> {
    let root = workspace_root();
    let mut findings = Vec::new();
    for dir in dirs {
        let sources: Vec<PathBuf> = files_under(&root.join(dir))
            .into_iter()
            .filter(|file| file.extension().is_some_and(|extension| extension == "rs"))
            .collect();
        assert!(
            sources.len() >= 5,
            "the sources of {dir} are found: {sources:?}"
        );
        for file in sources {
            let text = std::fs::read_to_string(&file).expect("a source file is UTF-8 text");
            let relative = file
                .strip_prefix(&root)
                .unwrap_or(&file)
                .display()
                .to_string();
            findings.extend(
                check(&text)
                    .into_iter()
                    .map(|found| format!("{relative}:{found}")),
            );
        }
    }
    findings
}

#[test]
fn the_pure_crates_read_no_file_no_environment_no_clock_and_no_randomness() {
    let offenders = findings_in_sources(
        &["crates/zayavka-core/src", "crates/zayavka-document/src"],
        impure_names_in,
    );
    assert!(
        offenders.is_empty(),
        "zayavka-core and zayavka-document must stay pure (values in, values out):\n{}",
        offenders.join("\n")
    );
}

#[test]
fn the_purity_check_finds_io_in_code_and_ignores_comments_and_tests() {
    let source = "// std::fs is not used here.\n\
                  let now = jiff::Zoned::now();\n\
                  let bytes = std::fs::read(path)?;\n\
                  #[cfg(test)]\n\
                  mod tests { const F: &[u8] = &std::fs::read(\"f\").unwrap(); }\n";
    assert_eq!(impure_names_in(source), ["2: Zoned::now", "3: std::fs"]);
}

/// Words that begin an SQL statement, written the way this project writes SQL: in capitals.
const SQL_STATEMENT_STARTS: &[&str] = &[
    "CREATE TABLE",
    "CREATE INDEX",
    "INSERT INTO",
    "DELETE FROM",
    "DROP TABLE",
    "ALTER TABLE",
];

/// How far after `SELECT ` a `FROM` still makes the two one query; queries span a few lines.
const SELECT_FROM_DISTANCE: usize = 400;

/// Each SQL statement in `text` as `line: the words found`.
///
/// Only capitals count: English prose such as «select the profile from the file» is not SQL,
/// and every query in `zayavka-store` is written in capitals.
fn sql_statements_in(text: &str) -> Vec<String> {
    let line_of = |offset: usize| text[..offset].matches('\n').count() + 1;
    let mut found = Vec::new();
    for words in SQL_STATEMENT_STARTS {
        for (offset, _) in text.match_indices(words) {
            found.push((offset, (*words).to_owned()));
        }
    }
    for (offset, _) in text.match_indices("SELECT ") {
        let rest = &text[offset..];
        let window = rest
            .char_indices()
            .nth(SELECT_FROM_DISTANCE)
            .map_or(rest, |(end, _)| &rest[..end]);
        let has_from = window
            .split(|character: char| !character.is_ascii_alphanumeric() && character != '_')
            .any(|word| word == "FROM");
        if has_from {
            found.push((offset, "SELECT … FROM".to_owned()));
        }
    }
    found.sort();
    found
        .into_iter()
        .map(|(offset, words)| format!("{}: {words}", line_of(offset)))
        .collect()
}

#[test]
fn only_the_store_crate_contains_sql() {
    let root = workspace_root();
    let store = root.join("crates/zayavka-store");
    let mut offenders = Vec::new();
    for file in files_under(&root.join("crates")) {
        if file.starts_with(&store) {
            continue;
        }
        let relative = file
            .strip_prefix(&root)
            .unwrap_or(&file)
            .display()
            .to_string();
        match file.extension().and_then(|extension| extension.to_str()) {
            Some("sql") => offenders.push(format!("{relative}: an SQL file")),
            Some("rs") => {
                let text = std::fs::read_to_string(&file).expect("a source file is UTF-8 text");
                for statement in sql_statements_in(&text) {
                    offenders.push(format!("{relative}:{statement}"));
                }
            }
            _ => {}
        }
    }
    assert!(
        offenders.is_empty(),
        "rule «only zayavka-store knows SQL» broken by SQL outside crates/zayavka-store/:\n{}",
        offenders.join("\n")
    );
}

#[test]
fn the_sql_check_finds_statements_and_ignores_prose() {
    let source = "// Select the profile from the file.\n\
                  const Q: &str = \"SELECT id,\n    body\n  FROM drafts\";\n\
                  const I: &str = \"INSERT INTO drafts (id) VALUES (?1)\";\n\
                  const S: &str = \"SELECT FROMAGE\";\n";
    assert_eq!(
        sql_statements_in(source),
        ["2: SELECT … FROM", "5: INSERT INTO"]
    );
}

/// Every `"ZAYAVKA_…` name in a string literal of `text`.
fn zayavka_variables_in(text: &str) -> BTreeSet<String> {
    text.match_indices("\"ZAYAVKA_")
        .filter_map(|(offset, _)| {
            let name: String = text[offset + 1..]
                .chars()
                .take_while(|character| {
                    character.is_ascii_uppercase()
                        || character.is_ascii_digit()
                        || *character == '_'
                })
                .collect();
            // A bare `"ZAYAVKA_` prefix, as in a test that no message names a variable, is no name.
            (name.len() > "ZAYAVKA_".len()).then_some(name)
        })
        .collect()
}

#[test]
fn every_zayavka_variable_in_the_sources_is_cleared() {
    let root = workspace_root();
    let this_list = [
        root.join("tests/integration/support.rs"),
        root.join("tests/integration/architecture.rs"),
    ];
    let mut sources = files_under(&root.join("crates"));
    sources.extend(files_under(&root.join("tests/integration")));
    let mut found = BTreeSet::new();
    for file in sources {
        if file.extension().is_none_or(|extension| extension != "rs") || this_list.contains(&file) {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("a source file is UTF-8 text");
        found.extend(zayavka_variables_in(&text));
    }
    let known: BTreeSet<String> = ZAYAVKA_VARIABLES
        .iter()
        .chain(READ_ONLY_BY_TESTS)
        .map(|name| (*name).to_owned())
        .collect();
    let missing: Vec<_> = found.difference(&known).collect();
    assert!(
        missing.is_empty(),
        "the sources read {missing:?}: add each to support::ZAYAVKA_VARIABLES (or, if only a test \
         reads it, to READ_ONLY_BY_TESTS)"
    );
    let stale: Vec<_> = known.difference(&found).collect();
    assert!(
        stale.is_empty(),
        "no source names {stale:?} any more: remove it from the list"
    );
}

#[test]
fn the_variable_scan_reads_names_in_string_literals_only() {
    let source = "const A: &str = \"ZAYAVKA_MODEL\";\n\
                  // ZAYAVKA_HOME_VARIABLE is a constant, not a variable.\n\
                  assert!(text.contains(\"ZAYAVKA_API_KEY: задана неверно\"));\n\
                  for word in [\"ZAYAVKA_\"] {}\n";
    assert_eq!(
        zayavka_variables_in(source),
        BTreeSet::from(["ZAYAVKA_API_KEY".to_owned(), "ZAYAVKA_MODEL".to_owned()])
    );
}

/// Regression test for issue 6: a developer's own `ZAYAVKA_*` settings changed test results.
#[test]
fn issue_6_the_test_binary_command_clears_every_zayavka_variable() {
    let command = zayavka();
    let envs: Vec<_> = command.get_envs().collect();
    for variable in ZAYAVKA_VARIABLES {
        assert!(
            envs.contains(&(variable.as_ref(), None)),
            "{variable} is not removed: {envs:?}"
        );
    }
    for variable in [
        "ZAYAVKA_BASE_URL",
        "ZAYAVKA_MODEL",
        "ZAYAVKA_API_KEY",
        "ZAYAVKA_LOG",
    ] {
        assert!(
            envs.contains(&(variable.as_ref(), None)),
            "{variable} is not removed"
        );
    }
}

/// The string literals of `code` (plain `"…"` ones, escapes kept as written), with their line.
/// A `'"'` character literal starts none.
fn string_literals(code: &str) -> Vec<(usize, String)> {
    let chars: Vec<char> = code.chars().collect();
    let mut found = Vec::new();
    let mut line = 1;
    let mut index = 0;
    let mut current: Option<(usize, String)> = None;
    while let Some(&c) = chars.get(index) {
        index += 1;
        if c == '\n' {
            line += 1;
        }
        match &mut current {
            None if c == '\'' && chars.get(index..index + 2) == Some(&['"', '\'']) => index += 2,
            None if c == '"' => current = Some((line, String::new())),
            None => {}
            Some((_, text)) if c == '\\' => {
                text.push(c);
                if let Some(&next) = chars.get(index) {
                    index += 1;
                    if next == '\n' {
                        line += 1;
                    }
                    text.push(next);
                }
            }
            Some(_) if c == '"' => found.extend(current.take()),
            Some((_, text)) => text.push(c),
        }
    }
    found
}

/// Flags of the local model servers' own programs (llama-server, LM Studio's `lms`), which the
/// advice on a context that is too small names (ADR 24): not Zayavka's.
const THIRD_PARTY_FLAGS: &[&str] = &["--ctx-size", "--parallel", "--context-length"];

/// A Russian sentence of `code` that names a command-line command or flag (`zayavka doctor`,
/// `--force`), as `line: text`. Comments and test modules are left out.
fn commands_in_messages(code: &str) -> Vec<String> {
    let code = code.split("#[cfg(test)]").next().unwrap_or_default();
    let code: String = code
        .lines()
        .map(|line| match line.trim_start().starts_with("//") {
            true => "",
            false => line,
        })
        .collect::<Vec<_>>()
        .join("\n");
    string_literals(&code)
        .into_iter()
        // A Russian sentence: Cyrillic letters in it.
        .filter(|(_, text)| text.chars().any(|c| ('\u{0400}'..='\u{04FF}').contains(&c)))
        .filter(|(_, text)| {
            let words: Vec<&str> = text.split_whitespace().collect();
            words.iter().any(|word| {
                word.starts_with("--")
                    && word[2..].starts_with(|c: char| c.is_ascii_lowercase())
                    && !THIRD_PARTY_FLAGS.contains(&word.trim_end_matches([',', '.', ')']))
            }) || words.windows(2).any(|pair| {
                pair[0] == "zayavka" && pair[1].starts_with(|c: char| c.is_ascii_lowercase())
            })
        })
        .map(|(line, text)| format!("{line}: {text}"))
        .collect()
}

/// The core and the engine say what happened and what to do in words; the command or button
/// is the front end's to name (a typed `NextStep`), so a message reads right on every front end.
#[test]
fn the_core_and_the_engine_name_no_command_or_flag_in_a_message() {
    let offenders = findings_in_sources(
        &["crates/zayavka-core/src", "crates/zayavka-engine/src"],
        commands_in_messages,
    );
    assert!(
        offenders.is_empty(),
        "a message names a command or a flag:\n{}",
        offenders.join("\n")
    );
}

#[test]
fn the_message_check_finds_commands_and_flags_in_russian_text_only() {
    let code = "// \"Запустите zayavka doctor\" in a comment.\n\
                let a = \"Проверьте: zayavka doctor\"; let q = '\"';\n\
                let b = \"usage: zayavka --json\";\n\
                let c = \"Повторите с \\\"--force\\\"\";\n\
                let d = \"Повторите с --force\";\n\
                let e = \"Сервис — Zayavka\";\n\
                #[cfg(test)]\n\
                mod tests { const T: &str = \"Запустите zayavka doctor\"; }\n";
    assert_eq!(
        commands_in_messages(code),
        ["2: Проверьте: zayavka doctor", "5: Повторите с --force"]
    );
}

/// What a front end's own code may not name: it reads and writes files through the engine.
const FILE_NAMES: &[&str] = &["std::fs", "File::", "OpenOptions", "tokio::fs"];

/// The file system names of [`FILE_NAMES`] in `text` as `line: name`, outside comments, test
/// modules and files that are test code whole (`#![cfg(test)]`).
fn file_access_in(text: &str) -> Vec<String> {
    if text.contains("#![cfg(test)]") {
        return Vec::new();
    }
    let code = text.split("#[cfg(test)]").next().unwrap_or_default();
    let mut found = Vec::new();
    for (index, line) in code.lines().enumerate() {
        let line = line.split("//").next().unwrap_or_default();
        for name in FILE_NAMES {
            // `File::`, not `BatchFile::`.
            let whole = line.match_indices(name).any(|(at, _)| {
                !line[..at]
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_')
            });
            if whole {
                found.push(format!("{}: {name}", index + 1));
            }
        }
    }
    found
}

/// One policy in one place (ADR 30): a document, an export, the settings file, a kept form are
/// written whole by the engine (`replace_file`), and files the resident names are read by it
/// (`read_text_file`, the batch reader), so a front end never opens a file itself.
#[test]
fn the_front_ends_read_and_write_files_only_through_the_engine() {
    let offenders =
        findings_in_sources(&["crates/zayavka-cli/src", "src-tauri/src"], file_access_in);
    assert!(
        offenders.is_empty(),
        "a front end touches files itself:\n{}",
        offenders.join("\n")
    );
}

#[test]
fn the_file_check_skips_comments_and_test_code() {
    assert_eq!(
        file_access_in(
            "// std::fs here\nlet f = std::fs::write(p, b)?;\n#[cfg(test)]\nstd::fs::read(p);"
        ),
        ["2: std::fs"]
    );
    assert!(file_access_in("#![cfg(test)]\nstd::fs::write(p, b);").is_empty());
}

/// Each line of `text` that gives the process a numbered exit code or ends it early, as
/// `line: code`, outside comments and test modules.
fn numbered_exits_in(text: &str) -> Vec<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or_default();
    let mut found = Vec::new();
    for (index, line) in code.lines().enumerate() {
        let line = line.split("//").next().unwrap_or_default();
        let numbered = line
            .match_indices("ExitCode::from(")
            .any(|(at, call)| line[at + call.len()..].starts_with(|c: char| c.is_ascii_digit()));
        if numbered || line.contains("process::exit") {
            found.push(format!("{}: {}", index + 1, line.trim()));
        }
    }
    found
}

/// Every exit code of `zayavka` is a named constant of `exit.rs`: elsewhere the tool's code
/// names one (`ExitCode::from(exit::FAILED)`), never a number, and never ends the process
/// early, which would skip the closed-pipe handling of `main` (ADR 19).
#[test]
fn every_exit_code_is_named_in_exit_rs() {
    let offenders = findings_in_sources(&["crates/zayavka-cli/src"], numbered_exits_in);
    assert!(
        offenders.is_empty(),
        "an exit code outside exit.rs:\n{}",
        offenders.join("\n")
    );
}

#[test]
fn the_exit_check_finds_numbers_and_early_exits_only() {
    let code = "Ok(ExitCode::from(exit::FAILED))\n\
                Ok(ExitCode::from(3))\n\
                // ExitCode::from(4) in a comment\n\
                std::process::exit(1);\n\
                #[cfg(test)]\n\
                mod tests { const C: ExitCode = ExitCode::from(2); }\n";
    assert_eq!(
        numbered_exits_in(code),
        ["2: Ok(ExitCode::from(3))", "4: std::process::exit(1);"]
    );
}

/// Whether `word` occurs in `text` as a whole identifier (`Store`, not `StoreError`).
fn names_identifier(text: &str, word: &str) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|token| token == word)
}

/// The statements of `text` that start with `start` (`pub use`, `pub fn`), each up to its end:
/// the `;` of a `use`, the `{` or `;` of a function's signature. Test modules are left out.
fn statements(text: &str, start: &str) -> Vec<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or_default();
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find(start) {
        let statement = &rest[at..];
        let end = statement.find([';', '{']).unwrap_or(statement.len());
        found.push(statement[..end].to_owned());
        rest = &statement[end..];
    }
    found
}

/// The handle's promise (ADR 31): a front end reaches the drafts database only through the
/// engine's methods, so the engine neither re-exports the store's handle nor takes or gives it
/// in a public method of `Engine`.
#[test]
fn the_store_handle_never_leaves_the_engine() {
    let root = workspace_root().join("crates/zayavka-engine/src");
    let lib = std::fs::read_to_string(root.join("lib.rs")).unwrap();
    let exports = statements(&lib, "pub use ");
    assert!(exports.len() > 10, "the surface is read: {exports:?}");
    let leaks: Vec<&String> = exports
        .iter()
        .filter(|export| names_identifier(export, "Store"))
        .collect();
    assert!(leaks.is_empty(), "the engine re-exports Store: {leaks:?}");

    let engine = std::fs::read_to_string(root.join("engine.rs")).unwrap();
    let methods: Vec<String> = statements(&engine, "pub fn ")
        .into_iter()
        .chain(statements(&engine, "pub async fn "))
        .collect();
    assert!(
        methods.len() > 40,
        "the handle's methods are read: {}",
        methods.len()
    );
    let leaks: Vec<&String> = methods
        .iter()
        .filter(|method| names_identifier(method, "Store"))
        .collect();
    assert!(
        leaks.is_empty(),
        "a method of Engine gives or takes Store: {leaks:?}"
    );
}

#[test]
fn the_store_check_reads_whole_identifiers_and_whole_statements() {
    assert!(names_identifier(
        "pub use zayavka_store::{Batch, Store};",
        "Store"
    ));
    assert!(!names_identifier(
        "pub use zayavka_store::{StoreError, StoredDraft};",
        "Store"
    ));
    let methods = statements(
        "pub fn open(&self)\n    -> Result<Store, StoreError> {\n}\npub fn name(&self) -> &str { \"\" }",
        "pub fn ",
    );
    assert_eq!(methods.len(), 2);
    assert!(names_identifier(&methods[0], "Store"));
    assert!(!names_identifier(&methods[1], "Store"));
}

/// `zayavka config show --json` with each provider variable and the key set on `command` first.
fn config_show_with_developer_settings(clear: bool) -> Value {
    let home = tempfile::tempdir().unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_zayavka"));
    command
        .env("ZAYAVKA_BASE_URL", "http://127.0.0.1:9/v1")
        .env("ZAYAVKA_MODEL", "developer-model")
        .env("ZAYAVKA_SCHEMA_MODE", "json_schema")
        .env("ZAYAVKA_TIMEOUT_SECS", "7")
        .env("ZAYAVKA_ATTEMPTS", "1")
        .env("ZAYAVKA_API_KEY", "sk-developer-0123456789abcdef")
        .env("ZAYAVKA_LOG", "trace");
    if clear {
        crate::support::clear_zayavka_variables(&mut command);
    }
    command.env("ZAYAVKA_HOME", home.path());
    let (output, stdout, stderr) = crate::support::run(command.args(["config", "show", "--json"]));
    assert!(output.status.success(), "{stderr}");
    serde_json::from_str(&stdout).expect("config show --json prints JSON")
}

/// Regression test for issue 6, end to end: the developer's settings reach the binary unless the
/// helper clears them, and once cleared the binary sees none of them.
#[test]
fn issue_6_cleared_variables_do_not_reach_the_binary() {
    let leaked = config_show_with_developer_settings(false);
    assert_ne!(leaked["overridden"], serde_json::json!([]), "{leaked:#}");
    assert_eq!(leaked["api_key"]["status"]["environment_override"], true);

    let cleared = config_show_with_developer_settings(true);
    // With nothing set and no file, there is no provider, so no key is looked for either.
    assert_eq!(cleared["overridden"], serde_json::json!([]), "{cleared:#}");
    assert_eq!(cleared["provider"], Value::Null, "{cleared:#}");
    assert_eq!(cleared["api_key"], Value::Null, "{cleared:#}");
}
