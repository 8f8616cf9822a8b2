#!/usr/bin/env bash
# Measures the release desktop app next to an empty Tauri app built the same way
# (benches/empty-app: same tauri version, features and release profile), in one run on this
# machine: cold start to a painted window, PSS summed over the app's processes after the window
# has settled, and the binary's size, plain and stripped. The empty app is the floor that
# WebKitGTK and Tauri set; the targets are within 10 % of it for start and memory, and a binary
# under 15 MB.
#
#   bash scripts/bench-desktop.sh [RUNS]      (10 launches of each app unless told)
#
# Needs the Tauri build libraries and xvfb, imagemagick, xdotool, dbus-daemon (.ci/run installs
# them). The empty app builds into EMPTY_TARGET_DIR (default target/empty-app) so that it never
# shares the workspace's cargo lock.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
target=${CARGO_TARGET_DIR:-target}
empty_target=${EMPTY_TARGET_DIR:-$target/empty-app}
empty_target=$(realpath -m "$empty_target")

for tool in xvfb-run dbus-run-session xdotool import strip python3; do
  command -v "$tool" >/dev/null || { echo "bench-desktop: $tool is missing (see .ci/run)" >&2; exit 2; }
done

echo "== building both release binaries (custom-protocol: the page is served from the binary)"
cargo build --release --locked -p zayavka-desktop --features tauri/custom-protocol
(cd benches/empty-app && CARGO_TARGET_DIR="$empty_target" \
  cargo build --release --locked --features tauri/custom-protocol)
app=$(realpath "$target/release/zayavka-desktop")
empty=$(realpath "$empty_target/release/zayavka-empty-app")

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
strip -o "$scratch/app-stripped" "$app"
strip -o "$scratch/empty-stripped" "$empty"
sizes=$(printf '{"zayavka": [%d, %d], "empty": [%d, %d]}' \
  "$(stat -c %s "$app")" "$(stat -c %s "$scratch/app-stripped")" \
  "$(stat -c %s "$empty")" "$(stat -c %s "$scratch/empty-stripped")")

# The samples are kept beside the build, one JSON line each as it is measured, so that a run's
# measurements survive whatever follows (issue 31); the summary reads them from there.
samples_dir="$target/bench-desktop"
mkdir -p "$samples_dir"
samples="$(realpath "$samples_dir")/samples-$(date +%Y%m%d-%H%M%S).jsonl"

echo "== $runs launches of each, alternating, under Xvfb (samples: $samples)"
# A private D-Bus session, as tests/e2e does, so the apps start no session bus or keyring daemon
# of their own that would outlive them; the data folders live in the scratch folder.
env -u DISPLAY -u WAYLAND_DISPLAY -u DBUS_SESSION_BUS_ADDRESS TMPDIR="$scratch" \
  xvfb-run -a -s "-screen 0 1280x900x24 -nolisten tcp" \
  dbus-run-session -- env NO_AT_BRIDGE=1 \
  python3 benches/desktop_measure.py "$samples" "$runs" "empty=$empty" "zayavka=$app"

python3 benches/desktop_summary.py "$samples" "$sizes"
