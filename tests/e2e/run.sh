#!/usr/bin/env bash
# End-to-end tests of the real desktop app: Xvfb, a private D-Bus session with an unlocked GNOME
# Keyring, tauri-driver (which starts WebKitWebDriver itself) and node's test runner driving the
# app through WebDriver against the stand-in provider on 127.0.0.1.
#
#   cargo build -p zayavka-desktop -p zayavka-standin -p zayavka-cli --locked && bash tests/e2e/run.sh [FILE.test.js…]
#
# It builds nothing: the caller builds. The app is ZAYAVKA_E2E_APP (default
# debug/zayavka-desktop in $CARGO_TARGET_DIR or target/), the stand-in ZAYAVKA_E2E_STANDIN
# (default: zayavka-standin next to the app). Screenshots of every screen go to
# target/e2e-screenshots/. Everything it starts is ended when it exits, however it exits.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)

if [[ "${ZAYAVKA_E2E_INNER:-}" != 1 ]]; then
  app=${ZAYAVKA_E2E_APP:-${CARGO_TARGET_DIR:-$root/target}/debug/zayavka-desktop}
  app=$(realpath -m "$app")
  standin=${ZAYAVKA_E2E_STANDIN:-$(dirname "$app")/zayavka-standin}
  standin=$(realpath -m "$standin")
  # The command-line tool writes a test's settings before the app starts (harness.js configSet).
  cli=${ZAYAVKA_E2E_CLI:-$(dirname "$app")/zayavka}
  cli=$(realpath -m "$cli")

  missing=()
  need() { command -v "$1" >/dev/null 2>&1 || missing+=("$1 ($2)"); }
  need xvfb-run "apt-get install -y xvfb"
  need dbus-run-session "apt-get install -y dbus-daemon"
  need dbus-send "apt-get install -y dbus-bin"
  need gnome-keyring-daemon "apt-get install -y gnome-keyring"
  need WebKitWebDriver "apt-get install -y webkit2gtk-driver"
  need tauri-driver "cargo install tauri-driver --locked"
  need xdotool "apt-get install -y xdotool"
  need import "apt-get install -y imagemagick"
  need node "apt-get install -y nodejs (version 20 or newer)"
  if [[ ${#missing[@]} -gt 0 ]]; then
    printf 'tests/e2e: missing tools:\n' >&2
    printf '  %s\n' "${missing[@]}" >&2
    echo "(.ci/run installs all of them)" >&2
    exit 2
  fi
  if [[ "$(node -e 'process.stdout.write(String(process.versions.node.split(".")[0] >= 20))')" != true ]]; then
    echo "tests/e2e: node $(node --version) is too old; version 20 or newer is needed." >&2
    exit 2
  fi
  for binary in "$app" "$standin" "$cli"; do
    if [[ ! -x "$binary" ]]; then
      echo "tests/e2e: $binary is missing. Build it first:" >&2
      echo "  cargo build -p zayavka-desktop -p zayavka-standin -p zayavka-cli --locked" >&2
      echo "(or point ZAYAVKA_E2E_APP / ZAYAVKA_E2E_STANDIN at your build)" >&2
      exit 2
    fi
  done

  # The app must not find the caller's desktop session, keyring or data: everything below runs in
  # a virtual screen and a throw-away D-Bus session. NO_AT_BRIDGE keeps GTK from starting the
  # accessibility bus, whose daemons would outlive the session.
  unset DISPLAY WAYLAND_DISPLAY DBUS_SESSION_BUS_ADDRESS ZAYAVKA_API_KEY ZAYAVKA_HOME ZAYAVKA_BASE_URL \
    ZAYAVKA_MODEL ZAYAVKA_SCHEMA_MODE ZAYAVKA_TIMEOUT_SECS ZAYAVKA_ATTEMPTS
  export ZAYAVKA_E2E_INNER=1 ZAYAVKA_E2E_APP="$app" ZAYAVKA_E2E_STANDIN="$standin" ZAYAVKA_E2E_CLI="$cli"
  exec xvfb-run -a -s "-screen 0 1280x900x24 -nolisten tcp" \
    dbus-run-session -- env NO_AT_BRIDGE=1 bash "${BASH_SOURCE[0]}" "$@"
fi

# ---- Inside Xvfb and the D-Bus session.
cd "$here"
port=${ZAYAVKA_E2E_DRIVER_PORT:-4444}
native_port=$((port + 1))

scratch=$(mktemp -d "${TMPDIR:-/tmp}/zayavka-e2e.XXXXXX")
driver_pid=
cleanup() {
  status=$?
  if [[ -n "$driver_pid" ]]; then
    # tauri-driver runs in a process group of its own, with WebKitWebDriver and any app it
    # launched: ending the group ends all of them.
    kill -TERM -- "-$driver_pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 -- "-$driver_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$driver_pid" 2>/dev/null || true
  fi
  # The keyring daemon detaches from this shell; it is ours when its runtime folder is ours.
  for proc in /proc/[0-9]*; do
    [[ "$(cat "$proc/comm" 2>/dev/null)" == gnome-keyring-d ]] || continue
    if tr '\0' '\n' <"$proc/environ" 2>/dev/null | grep -qxF "XDG_RUNTIME_DIR=$scratch/runtime"; then
      kill -TERM "${proc#/proc/}" 2>/dev/null || true
    fi
  done
  rm -rf "$scratch"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# The keyring daemon and the app get a private home, so no real keyring or configuration is read
# or written. Rust's tools keep their real homes.
mkdir -p "$scratch/home" "$scratch/runtime" "$scratch/data" "$scratch/config" "$scratch/cache"
chmod 700 "$scratch/runtime"
export CARGO_HOME="${CARGO_HOME:-$HOME/.cargo}" RUSTUP_HOME="${RUSTUP_HOME:-$HOME/.rustup}"
export HOME="$scratch/home" XDG_RUNTIME_DIR="$scratch/runtime" XDG_DATA_HOME="$scratch/data" \
  XDG_CONFIG_HOME="$scratch/config" XDG_CACHE_HOME="$scratch/cache"

# Unlock a login keyring for the settings test's key, as crates/zayavka-engine/keyring-session.sh
# does; the password protects nothing, the keyring lives in the scratch folder.
eval "$(printf pw | gnome-keyring-daemon --unlock --components=secrets)"
export GNOME_KEYRING_CONTROL
tries=0
until dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q "boolean true"; do
  tries=$((tries + 1))
  if [[ $tries -gt 50 ]]; then echo "tests/e2e: the keyring daemon did not start" >&2; exit 2; fi
  sleep 0.1
done

if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
  echo "tests/e2e: port $port is taken (another tauri-driver?); set ZAYAVKA_E2E_DRIVER_PORT." >&2
  exit 2
fi
setsid tauri-driver --port "$port" --native-port "$native_port" >"$scratch/tauri-driver.log" 2>&1 &
driver_pid=$!
for _ in $(seq 100); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  sleep 0.1
done
if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
  echo "tests/e2e: tauri-driver did not listen on port $port:" >&2
  cat "$scratch/tauri-driver.log" >&2
  exit 2
fi
export ZAYAVKA_E2E_DRIVER="http://127.0.0.1:$port"

if [[ $# -gt 0 ]]; then files=("$@"); else files=(./*.test.js); fi
# One test at a time: the app allows a single instance, and the machine has two cores.
status=0
node --test --test-concurrency=1 "${files[@]}" || status=$?
if [[ $status -ne 0 ]]; then
  echo "--- tauri-driver log (last 40 lines)" >&2
  tail -n 40 "$scratch/tauri-driver.log" >&2
fi
exit "$status"
