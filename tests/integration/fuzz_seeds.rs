//! Every fuzz target's checks over its checked-in seeds (ADR 29), in the ordinary test build:
//! the target bodies live in `fuzz/checks/` and are compiled both into the libFuzzer targets
//! (`fuzz/fuzz_targets/`, built by `cargo fuzz`) and here, so a change that makes a seed fail
//! an invariant — or panic — fails this test on every platform the suite runs on, Windows under
//! Wine included, with no instrumented build.

use std::path::{Path, PathBuf};

#[path = "../../fuzz/checks/batch.rs"]
mod batch;
#[path = "../../fuzz/checks/config.rs"]
mod config;
#[path = "../../fuzz/checks/envelope_chat.rs"]
mod envelope_chat;
#[path = "../../fuzz/checks/envelope_gigachat_token.rs"]
mod envelope_gigachat_token;
#[path = "../../fuzz/checks/envelope_responses.rs"]
mod envelope_responses;
#[path = "../../fuzz/checks/input_contract.rs"]
mod input_contract;
#[path = "../../fuzz/checks/input_json.rs"]
mod input_json;
#[path = "../../fuzz/checks/model_reply.rs"]
mod model_reply;
#[path = "../../fuzz/checks/photo.rs"]
mod photo;
#[path = "../../fuzz/checks/replay.rs"]
mod replay;

/// What a fuzz target runs on one input.
type Check = fn(&[u8]);

/// Each target by its name in `fuzz/Cargo.toml`, with the check its fuzz target runs.
const TARGETS: &[(&str, Check)] = &[
    ("input_contract", input_contract::check),
    ("input_json", input_json::check),
    ("model_reply", model_reply::check),
    ("envelope_chat", envelope_chat::check),
    ("envelope_responses", envelope_responses::check),
    ("envelope_gigachat_token", envelope_gigachat_token::check),
    ("batch_csv", |data| batch::check("строки.csv", data)),
    ("batch_xlsx", |data| batch::check("строки.xlsx", data)),
    ("batch_jsonl", |data| batch::check("строки.jsonl", data)),
    ("photo", photo::check),
    ("config", config::check),
    ("replay", replay::check),
];

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

fn seeds(target: &str) -> Vec<PathBuf> {
    let dir = fuzz_dir().join("seeds").join(target);
    let mut files: Vec<PathBuf> = match std::fs::read_dir(&dir) {
        Ok(entries) => entries.map(|entry| entry.unwrap().path()).collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    files
}

#[test]
fn every_seed_of_every_fuzz_target_passes_its_checks() {
    let mut replayed = 0;
    let mut failed = Vec::new();
    for (target, check) in TARGETS {
        for seed in seeds(target) {
            let bytes = std::fs::read(&seed).unwrap();
            if std::panic::catch_unwind(|| check(&bytes)).is_err() {
                failed.push(seed.display().to_string());
            }
            replayed += 1;
        }
    }
    assert!(
        failed.is_empty(),
        "seeds that fail their target: {failed:#?}"
    );
    // The checked-in corpora (fuzz/make-seeds.py): every target but `input_contract` has some.
    assert!(
        replayed >= TARGETS.len() - 1,
        "only {replayed} seeds were found"
    );
}

#[test]
fn the_list_here_is_the_fuzz_crate_s_list() {
    let manifest = std::fs::read_to_string(fuzz_dir().join("Cargo.toml")).unwrap();
    let manifest: toml::Table = manifest.parse().unwrap();
    let mut bins: Vec<&str> = manifest["bin"]
        .as_array()
        .unwrap()
        .iter()
        .map(|bin| bin["name"].as_str().unwrap())
        .collect();
    bins.sort_unstable();
    let mut here: Vec<&str> = TARGETS.iter().map(|(name, _)| *name).collect();
    here.sort_unstable();
    assert_eq!(here, bins);
    for name in &here {
        if *name != "input_contract" {
            assert!(!seeds(name).is_empty(), "fuzz/seeds/{name} has no seeds");
        }
    }
}
