//! The API key's whole path through the real OS keyring: `key set` from stdin, `key status`,
//! a draft that sends the stored key as a Bearer token, `key delete`, and a draft that then
//! stops before any call. Nothing on the way may print or write the key.
//!
//! The `zayavka` binary stores keys under its real service name, so this test runs only in the
//! throw-away keyring that `crates/zayavka-engine/keyring-session.sh` provides: it is ignored,
//! so that a plain `cargo test` or `cargo nextest run` lists it as skipped, and
//! `scripts/test.sh` runs it inside that session (`--run-ignored all`). Run by hand outside the
//! session, it stops before touching your real keyring.

use std::io::Write as _;
use std::process::Stdio;

use serde_json::Value;
use zayavka_standin::{Reply, Script, StandIn};

use crate::support::{run, zayavka};

/// Stops a keyring test that was asked to run outside the throw-away keyring session, before it
/// could store a canary key in the developer's real keyring under Zayavka's service name.
pub(crate) fn require_throwaway_keyring() {
    assert!(
        std::env::var_os("ZAYAVKA_THROWAWAY_KEYRING").is_some(),
        "this test uses the real OS keyring and runs only in the throw-away session: \
         bash scripts/test.sh, or crates/zayavka-engine/keyring-session.sh cargo nextest run \
         --run-ignored all"
    );
}

const CANARY_KEY: &str = "sk-canary-keyring-0123456789abcdefghijklmnop";

#[test]
#[ignore = "the real OS keyring: runs in the throw-away keyring session of scripts/test.sh"]
fn a_stored_key_is_used_for_the_call_and_never_shown() {
    require_throwaway_keyring();
    let draft_content = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benches/draft-response.json"),
    )
    .unwrap();
    let stand_in = StandIn::start(Script::always(Reply::completion(draft_content.trim())));
    let home = tempfile::tempdir().unwrap();
    let profile = format!("e2e{}", std::process::id());
    let zayavka_in_home = || {
        let mut command = zayavka();
        command.env("ZAYAVKA_HOME", home.path());
        command
    };
    for (key, value) in [
        (format!("profiles.{profile}.kind"), "custom".to_owned()),
        (format!("profiles.{profile}.base_url"), stand_in.base_url()),
        (
            format!("profiles.{profile}.model"),
            "stand-in-model".to_owned(),
        ),
        (
            format!("profiles.{profile}.needs_api_key"),
            "true".to_owned(),
        ),
        ("active_profile".to_owned(), profile.clone()),
    ] {
        let (output, _, stderr) = run(zayavka_in_home().args(["config", "set", &key, &value]));
        assert!(output.status.success(), "config set {key}: {stderr}");
    }

    let mut set = zayavka_in_home()
        .args(["key", "set", "--stdin"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    writeln!(set.stdin.take().unwrap(), "{CANARY_KEY}").unwrap();
    let set = set.wait_with_output().unwrap();
    let mut shown = String::from_utf8_lossy(&set.stdout).into_owned();
    shown += &String::from_utf8_lossy(&set.stderr);
    assert!(set.status.success(), "key set: {shown}");

    let (status, stdout, stderr) = run(zayavka_in_home().args(["key", "status"]));
    assert_eq!(status.status.code(), Some(0), "{stdout}{stderr}");
    shown += &stdout;
    shown += &stderr;

    let (draft, stdout, stderr) = run(zayavka_in_home().args([
        "draft",
        "--json",
        "--description",
        "В подъезде неделю не горит свет на лестнице между третьим и четвёртым этажами",
    ]));
    assert_eq!(draft.status.code(), Some(0), "{stdout}{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["outcome"], "ready");
    let authorization = stand_in.requests()[0]
        .header("authorization")
        .map(str::to_owned);
    assert_eq!(authorization, Some(format!("Bearer {CANARY_KEY}")));
    shown += &stdout;
    shown += &stderr;

    let (delete, stdout, stderr) = run(zayavka_in_home().args(["key", "delete"]));
    assert!(delete.status.success(), "{stdout}{stderr}");
    let (draft, stdout, stderr) = run(zayavka_in_home().args([
        "draft",
        "--json",
        "--description",
        "В подъезде неделю не горит свет на лестнице между третьим и четвёртым этажами",
    ]));
    assert_eq!(draft.status.code(), Some(5), "{stdout}{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["reason"], "no_api_key");
    assert_eq!(
        stand_in.request_count(),
        1,
        "no call is made without the key"
    );
    shown += &stdout;
    shown += &stderr;

    assert!(!shown.contains(CANARY_KEY), "the key was shown: {shown}");
    for file in crate::support::files_under(home.path()) {
        let text = String::from_utf8_lossy(&std::fs::read(&file).unwrap()).into_owned();
        assert!(
            !text.contains(CANARY_KEY),
            "the key is in {}",
            file.display()
        );
    }
}
