#!/usr/bin/env bash
# The whole test suite, exactly as CI runs it: formatting, lints, the desktop page in headless
# Chromium (tests/ui, with axe-core accessibility checks), the desktop app end to end under Xvfb
# (tests/e2e, through tauri-driver; Linux only), and every test of the workspace.
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

echo "== desktop page (headless Chromium)"
bash tests/ui/run.sh

if [ "$(uname -s)" = Linux ]; then
    echo "== desktop app end to end (Xvfb, tauri-driver)"
    cargo build -p zayavka-desktop -p zayavka-standin --locked
    bash tests/e2e/run.sh
fi

echo "== cargo nextest"
tests=(cargo nextest run --workspace --locked --no-fail-fast)
if [ "$(uname -s)" = Linux ] && [ -z "${DBUS_SESSION_BUS_ADDRESS:-}" ]; then
    if command -v gnome-keyring-daemon >/dev/null && command -v dbus-run-session >/dev/null; then
        exec crates/zayavka-engine/keyring-session.sh "${tests[@]}"
    fi
    echo "note: gnome-keyring and dbus are not installed, so the real keyring round trip is" \
         "not tested (apt-get install -y gnome-keyring dbus-daemon dbus-bin)." >&2
    export ZAYAVKA_NO_KEYRING_TEST=1
fi
exec "${tests[@]}"
