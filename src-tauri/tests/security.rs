//! The app's security posture as ADR 15 states it, checked on the files that set it: a test
//! fails as soon as a permission, a plugin, a capability, a remote origin or a looser CSP is
//! added.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;
use zayavka_desktop::COMMANDS;

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn config() -> Value {
    read_json(&crate_dir().join("tauri.conf.json"))
}

#[test]
fn one_capability_grants_exactly_the_apps_own_commands() {
    let dir = crate_dir().join("capabilities");
    let files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(files, ["main-window.json"], "one capability file");
    let capability = read_json(&dir.join("main-window.json"));
    assert_eq!(capability["identifier"], "main-window");
    assert_eq!(capability["windows"], serde_json::json!(["main"]));
    assert!(
        capability.get("remote").is_none(),
        "no remote URL may call commands"
    );
    assert!(capability.get("webviews").is_none());
    let granted: BTreeSet<String> = capability["permissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            p.as_str()
                .expect("a plain permission, no scoped object")
                .to_owned()
        })
        .collect();
    let expected: BTreeSet<String> = COMMANDS
        .iter()
        .map(|name| format!("allow-{}", name.replace('_', "-")))
        .collect();
    assert_eq!(
        granted, expected,
        "only allow-<command> of this app's commands"
    );
    assert_eq!(
        config()["app"]["security"]["capabilities"],
        serde_json::json!(["main-window"])
    );
}

#[test]
fn the_listed_commands_and_no_others_are_registered_and_described() {
    // `contract::invoke_handler` registers exactly the list of `command_names.rs`, and the app
    // registers nothing else.
    let sources = [
        "src/lib.rs",
        "src/ipc.rs",
        "src/contract.rs",
        "src/commands.rs",
    ];
    let handlers: usize = sources
        .iter()
        .map(|file| {
            let source = std::fs::read_to_string(crate_dir().join(file)).unwrap();
            source.matches("generate_handler!").count()
        })
        .sum();
    assert_eq!(handlers, 1, "one generate_handler!, the contract's");
    let lib = std::fs::read_to_string(crate_dir().join("src/lib.rs")).unwrap();
    assert!(lib.contains(".invoke_handler(contract::invoke_handler())"));
    // The contract describes the same commands, each once, and no other.
    let contract = std::fs::read_to_string(crate_dir().join("../docs/desktop-ipc.md")).unwrap();
    let commands = &contract[contract
        .find("\n## Commands\n")
        .expect("a «Commands» section")..];
    let commands = &commands[..commands[1..]
        .find("\n## ")
        .map_or(commands.len(), |end| end + 1)];
    let described: Vec<&str> = commands
        .lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|rest| rest.split_once("` |").map(|(name, _)| name))
        .filter(|name| name.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
        .collect();
    let listed: BTreeSet<&str> = COMMANDS.iter().copied().collect();
    assert_eq!(described.len(), listed.len(), "each command described once");
    assert_eq!(described.into_iter().collect::<BTreeSet<_>>(), listed);
}

#[test]
fn no_plugin_beyond_dialog_clipboard_and_single_instance() {
    let manifest: toml::Value =
        toml::from_str(&std::fs::read_to_string(crate_dir().join("Cargo.toml")).unwrap()).unwrap();
    let plugins: BTreeSet<&str> = manifest["dependencies"]
        .as_table()
        .unwrap()
        .keys()
        .map(String::as_str)
        .filter(|name| name.starts_with("tauri-plugin"))
        .collect();
    assert_eq!(
        plugins,
        BTreeSet::from([
            "tauri-plugin-clipboard-manager",
            "tauri-plugin-dialog",
            "tauri-plugin-single-instance",
        ])
    );
    let tauri = &manifest["dependencies"]["tauri"];
    let features: Vec<&str> = tauri
        .get("features")
        .and_then(toml::Value::as_array)
        .map(|items| items.iter().filter_map(toml::Value::as_str).collect())
        .unwrap_or_default();
    assert!(features.is_empty(), "no extra tauri features: {features:?}");
}

fn csp_directives(text: &str) -> Vec<(String, Vec<String>)> {
    text.split(';')
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(|directive| {
            let mut parts = directive.split_whitespace().map(str::to_owned);
            (parts.next().unwrap(), parts.collect())
        })
        .collect()
}

fn check_sources(directives: &[(String, Vec<String>)]) {
    for (name, sources) in directives {
        for source in sources {
            let allowed = matches!(
                source.as_str(),
                "'self'" | "'none'" | "data:" | "ipc:" | "http://ipc.localhost"
            );
            assert!(allowed, "{name} allows {source}");
            if source == "data:" {
                assert_eq!(name, "img-src", "data: only for images");
            }
            if source.starts_with("ipc") || source.contains("ipc.localhost") {
                assert_eq!(name, "connect-src", "the IPC origin only for connections");
            }
        }
    }
}

#[test]
fn the_csp_is_strict_in_the_config_and_in_the_page() {
    let security = &config()["app"]["security"];
    let csp = security["csp"].as_object().unwrap();
    let configured: Vec<(String, Vec<String>)> = csp
        .iter()
        .map(|(name, value)| {
            (
                name.clone(),
                value
                    .as_str()
                    .unwrap()
                    .split_whitespace()
                    .map(str::to_owned)
                    .collect(),
            )
        })
        .collect();
    check_sources(&configured);
    for name in [
        "default-src",
        "script-src",
        "style-src",
        "object-src",
        "base-uri",
    ] {
        assert!(csp.contains_key(name), "{name} is set");
    }
    assert_eq!(csp["script-src"], "'self'");
    assert_eq!(csp["object-src"], "'none'");
    assert!(
        security
            .get("dangerousDisableAssetCspModification")
            .is_none()
    );
    assert!(security.get("devCsp").is_none());
    assert_eq!(security["freezePrototype"], true);

    let page = std::fs::read_to_string(crate_dir().join("../ui/index.html")).unwrap();
    let start = page.find("Content-Security-Policy\" content=\"").unwrap();
    let meta = &page[start + "Content-Security-Policy\" content=\"".len()..];
    let meta = &meta[..meta.find('"').unwrap()];
    check_sources(&csp_directives(meta));
}

#[test]
fn the_page_gets_no_global_tauri_and_no_remote_content() {
    let config = config();
    assert_eq!(config["app"]["withGlobalTauri"], false);
    assert_eq!(config["build"]["frontendDist"], "../ui");
    assert!(
        config["build"].get("devUrl").is_none(),
        "no dev server to load instead"
    );
    for window in config["app"]["windows"].as_array().unwrap() {
        assert!(
            window.get("url").is_none(),
            "every window shows the built-in page"
        );
    }
    // No page file loads anything from elsewhere or runs text as code. (The CSP forbids it
    // too; this catches it before anyone runs the page.)
    let forbidden = [
        "src=\"http",
        "href=\"http",
        "url(http",
        "url('http",
        "url(\"http",
        "from 'http",
        "from \"http",
        "import('http",
        "fetch(",
        "XMLHttpRequest",
        "WebSocket(",
        "eval(",
        "new Function(",
        ".innerHTML",
        "__TAURI__",
    ];
    for file in walk(&crate_dir().join("../ui")) {
        let ext = file.extension().and_then(|e| e.to_str()).unwrap_or("");
        if !matches!(ext, "html" | "js" | "css")
            || file.starts_with(crate_dir().join("../ui/vendor"))
        {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        for pattern in forbidden {
            assert!(
                !text.contains(pattern),
                "{} contains {pattern}",
                file.display()
            );
        }
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}
