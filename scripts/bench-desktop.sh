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

echo "== $runs launches of each, alternating, under Xvfb"
# A private D-Bus session, as tests/e2e does, so the apps start no session bus or keyring daemon
# of their own that would outlive them; the data folders live in the scratch folder.
env -u DISPLAY -u WAYLAND_DISPLAY -u DBUS_SESSION_BUS_ADDRESS TMPDIR="$scratch" \
  xvfb-run -a -s "-screen 0 1280x900x24 -nolisten tcp" \
  dbus-run-session -- env NO_AT_BRIDGE=1 \
  python3 benches/desktop_measure.py "$runs" "empty=$empty" "zayavka=$app" >"$scratch/samples.json"

python3 - "$scratch/samples.json" "$sizes" <<'PY'
import json, statistics, sys
samples = json.load(open(sys.argv[1]))
sizes = json.loads(sys.argv[2])

def row(label, unit, values_app, values_empty, fmt):
    med_a, med_e = statistics.median(values_app), statistics.median(values_empty)
    cell = lambda values, med: f"{fmt(med)} ({fmt(min(values))}–{fmt(max(values))})"
    print(f"| {label} | {cell(values_app, med_a)} {unit} | {cell(values_empty, med_e)} {unit} "
          f"| {med_a / med_e:.2f} |")

paint = {name: [s["paint_s"] for s in runs] for name, runs in samples.items()}
pss = {name: [s["pss_kib"] / 1024 for s in runs] for name, runs in samples.items()}
print()
print(f"| measure ({len(paint['zayavka'])} launches each) | Zayavka: median (min–max) "
      "| empty Tauri app: median (min–max) | ratio of medians |")
print("| --- | --- | --- | --- |")
row("start to painted window", "s", paint["zayavka"], paint["empty"], lambda v: f"{v:.2f}")
row("PSS, all processes", "MiB", pss["zayavka"], pss["empty"], lambda v: f"{v:.0f}")
mb = lambda n: n / 1_000_000
print(f"| binary | {mb(sizes['zayavka'][0]):.1f} MB | {mb(sizes['empty'][0]):.1f} MB "
      f"| {sizes['zayavka'][0] / sizes['empty'][0]:.2f} |")
print(f"| binary, stripped | {mb(sizes['zayavka'][1]):.1f} MB | {mb(sizes['empty'][1]):.1f} MB "
      f"| {sizes['zayavka'][1] / sizes['empty'][1]:.2f} |")
last = samples["zayavka"][-1]["processes"]
print()
print("Processes counted in Zayavka's last launch: "
      + ", ".join(f"{name} {kib / 1024:.0f} MiB" for name, kib in last))
PY
